import type { AppLoadContext } from "@remix-run/node";
import { findReport } from "#db/queries/reports";
import type { ReportRow } from "#db/schema-reports";
import { requireKidAccess, requireParent } from "~/utils/auth.server";

/**
 * A report the signed-in parent may read: their own kid's, or a kid delegated to them and accepted. A missing
 * id and another family's id answer the same 404 (nothing tells them apart).
 */
export async function requireReport(args: { request: Request; context: AppLoadContext }, id: string | null) {
  return (await requireReportWith(args, id, async () => undefined)).report;
}

/**
 * `requireReport`, with `also(report)` read beside the access check (and the report beside the session check):
 * two waits instead of four. What `also` read is returned only when the check passed.
 */
export async function requireReportWith<T>(
  args: { request: Request; context: AppLoadContext },
  id: string | null,
  also: (report: ReportRow) => Promise<T>,
) {
  const [, report] = await Promise.all([requireParent(args), id && id.length <= 64 ? findReport(args.context.services.db, id) : undefined]);
  if (!report) throw new Response("Report not found.", { status: 404 });
  try {
    const [, extra] = await Promise.all([requireKidAccess(args, report.profile_id), also(report)]);
    return { report, also: extra };
  } catch (err) {
    if (err instanceof Response && err.status === 404) throw new Response("Report not found.", { status: 404 });
    throw err;
  }
}
