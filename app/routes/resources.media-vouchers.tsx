import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireParent } from "~/utils/auth.server";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The media-voucher template (spec 1 §9, 10 and over): one printable voucher per hour of the weekly budget.
 * `?hours=N&name=…`. Plain HTML, prints without JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireParent(args);
  const url = new URL(args.request.url);
  const hours = Math.max(1, Math.min(24, Number.parseInt(url.searchParams.get("hours") ?? "10", 10) || 10));
  const name = esc((url.searchParams.get("name") ?? "").slice(0, 60));
  const vouchers = Array.from(
    { length: hours },
    (_, i) =>
      `<div class="v"><strong>Media voucher</strong><span>1 hour of screen time</span><span>${name ? `for ${name}` : "&nbsp;"}</span><small>${i + 1} of ${hours} · this week</small></div>`,
  ).join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Media vouchers</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;color:#111827}h1{font-size:1.3rem}.g{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:.75rem}
.v{border:2px dashed #0f766e;border-radius:12px;padding:1rem;display:flex;flex-direction:column;gap:.25rem;break-inside:avoid}small{color:#4b5563}</style></head>
<body><h1>Media vouchers: ${hours} hours a week</h1><p>One hour a week per year of age. Cut out the vouchers; ${name || "your child"} hands one in for each hour of screen time.</p><div class="g">${vouchers}</div></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
