import type { LoaderFunctionArgs } from "@remix-run/node";
import { listKidsForParent } from "#db/queries/kids";
import { pendingRequestCounts } from "#db/queries/requests";
import { unreadAlertCount } from "#db/queries/alerts";
import type { Parent } from "#db/schema";
import { KIDS_PAGE_SIZE } from "~/rules/kids";
import { perRequest } from "~/utils/request-memo.server";

/** What the signed-in frame (AppFrame) shows of a parent: their kids for the menu and each kid's pending requests. */
export async function appFrameData(args: Pick<LoaderFunctionArgs, "request" | "context">, parent: Parent) {
  const kids = await perRequest(args, "kids", () => listKidsForParent(args.context.services.db, parent, { pageSize: KIDS_PAGE_SIZE }));
  // The side menu's Request count (issue 14), per kid the parent may see.
  const requestCounts = await pendingRequestCounts(
    args.context.services.db,
    kids.map((k) => k.id),
  );
  // The header's bell: unread alerts (issue 55), live over GET /events (AlertBell).
  const unreadAlerts = await unreadAlertCount(args.context.services.db, parent);
  return {
    requestCounts,
    unreadAlerts,
    parent: { name: parent.name, email: parent.email, role: parent.role, useDefaultPassword: Boolean(parent.use_default_password) },
    kids,
  };
}
