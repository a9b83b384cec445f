import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireReport } from "~/components/reports/report.server";
import { requireParent } from "~/utils/auth.server";

/**
 * A report's chart as an image: /resources/report-chart?id=…&chart=bar|pie. The SVG was rendered when the report
 * was built and is stored with it; it never changes, so browsers may keep it (privately) for a day.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireParent(args);
  const url = new URL(args.request.url);
  const report = await requireReport(args, url.searchParams.get("id"));
  const chart = url.searchParams.get("chart");
  if (chart !== "bar" && chart !== "pie") throw new Response("Chart not found.", { status: 404 });
  return new Response(chart === "bar" ? report.bar_svg : report.pie_svg, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "private, max-age=86400",
      // An SVG opened on its own runs no script and loads nothing.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
