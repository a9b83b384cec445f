import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { countUnreadNotifications, listNotifications } from "#db/queries/dashboard/notifications";
import { canAccessKid } from "#db/queries/access";
import { getParent } from "~/utils/auth.server";
import { NOTIFICATIONS_PAGE } from "~/rules/notifications";

/**
 * JSON for the notification center's loader and the unread badge: `?profileId&page=N` (20 per page) or
 * `?count=1`. A visitor without a live session gets `is_logout: 1`, which sends the page to /login.
 */
export async function loader(args: LoaderFunctionArgs) {
  // What a kid's phone showed (messages, app names): kept by no cache, the browser's included.
  const headers = { "Cache-Control": "no-store" };
  const auth = await getParent(args);
  if (!auth) return json({ respones_msg: "Please sign in again.", is_logout: 1 }, { status: 401, headers });
  const url = new URL(args.request.url);
  const profileId = url.searchParams.get("profileId");
  if (!profileId) return json({ data: [], totalNotifications: 0, unread: 0 }, { headers });
  if (!(await canAccessKid(args.context.services.db, auth.parent, profileId)))
    throw new Response("Kid not found.", { status: 404, headers });
  const db = args.context.services.db;
  if (url.searchParams.get("count")) return json({ data: await countUnreadNotifications(db, profileId) }, { headers });
  const page = Math.max(1, Math.min(50, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const { items, total } = await listNotifications(db, profileId, page * NOTIFICATIONS_PAGE);
  return json({ data: items.slice((page - 1) * NOTIFICATIONS_PAGE), totalNotifications: total }, { headers });
}
