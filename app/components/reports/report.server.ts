import type { AppLoadContext } from "@remix-run/node";
import { findReport } from "#db/queries/reports";
import { requireKidAccess, requireParent } from "~/utils/auth.server";

/**
 * A report the signed-in parent may read: their own kid's, or a kid delegated to them and accepted. A missing
 * id and another family's id answer the same 404 (nothing tells them apart).
 */
export async function requireReport(args: { request: Request; context: AppLoadContext }, id: string | null) {
  await requireParent(args);
  const report = id && id.length <= 64 ? await findReport(args.context.services.db, id) : undefined;
  if (!report) throw new Response("Report not found.", { status: 404 });
  try {
    await requireKidAccess(args, report.profile_id);
  } catch (err) {
    if (err instanceof Response && err.status === 404) throw new Response("Report not found.", { status: 404 });
    throw err;
  }
  return report;
}
