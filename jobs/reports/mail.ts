import { formatMinutes } from "../../core/duration";
import { changeAgainst } from "../../core/report-periods";
import { unsubscribeUrl } from "../../core/report-unsubscribe";
import type { DB } from "../../db/index";
import {
  claimReportMail,
  findReport,
  reportRecipients,
  reportsToMail,
  reportView,
  setReportMailState,
  storeReportPngs,
  type ReportView,
} from "../../db/queries/reports";
import type { ReportRow } from "../../db/schema-reports";
import { chartPng } from "./png";
import type { ReportMail, ReportMailer } from "../../core/report-mail";

export type { ReportMail, ReportMailer };

type Log = (level: "debug" | "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Content-IDs of the two chart images, referenced from the HTML as `cid:…`. */
export const CHART_CIDS = { bar: "daily-use@report", pie: "categories@report" } as const;

/**
 * The mail for one recipient. Charts: PNG renderings of the report's stored SVGs (mail clients show no SVG),
 * inline by Content-ID with alt texts; the tables beside them keep the numbers for clients that block images.
 */
export function composeReportMail(
  r: ReportView,
  charts: { bar: Buffer; pie: Buffer },
  to: { email: string; name: string; unsubscribe: string | null },
  origin: string,
): ReportMail {
  const link = new URL(`/report?id=${encodeURIComponent(r.id)}`, origin).toString();
  const change = changeAgainst(r.totalMinutes, r.previousMinutes, r.kind);
  const apps = r.topApps.slice(0, 5);
  const text = [
    `Hello ${to.name},`,
    "",
    r.title,
    "",
    `Total screen time: ${formatMinutes(r.totalMinutes)} (${change.label})`,
    "",
    "Daily use:",
    ...r.dailyUsage.map((d) => `  ${d.name}: ${formatMinutes(d.minutes)}`),
    "",
    "Top applications:",
    ...(apps.length ? apps.map((a) => `  ${a.name}: ${formatMinutes(a.minutes)}`) : ["  No data found."]),
    "",
    "Top categories:",
    ...(r.topCategories.length ? r.topCategories.map((c) => `  ${c.name}: ${formatMinutes(c.minutes)}`) : ["  No data found."]),
    "",
    `Limits reached: ${r.limitsHit.length}. Requests answered: ${r.requestsAnswered.length}.`,
    "",
    `Read the whole report: ${link}`,
    ...(to.unsubscribe ? ["", `To stop these reports, open: ${to.unsubscribe}`] : []),
    "",
  ].join("\n");
  const row = (a: string, b: string) =>
    `<tr><td style="padding:4px 12px 4px 0">${esc(a)}</td><td style="padding:4px 0;text-align:right">${esc(b)}</td></tr>`;
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#111827;max-width:640px;margin:0 auto;padding:16px">
<p>Hello ${esc(to.name)},</p>
<h1 style="font-size:20px">${esc(r.title)}</h1>
<p style="font-size:16px"><strong>Total screen time: ${esc(formatMinutes(r.totalMinutes))}</strong><br><span style="color:#4b5563">${esc(change.label)}</span></p>
<h2 style="font-size:16px">Daily use</h2>
<img src="cid:${CHART_CIDS.bar}" alt="${esc(`Bar chart of daily screen time, ${r.title}`)}" width="640" style="display:block;width:100%;max-width:640px;height:auto">
<table style="border-collapse:collapse">${r.dailyUsage.map((d) => row(d.name, formatMinutes(d.minutes))).join("")}</table>
<h2 style="font-size:16px">Categories</h2>
<img src="cid:${CHART_CIDS.pie}" alt="${esc(`Pie chart of screen time by category, ${r.title}`)}" width="320" style="display:block;max-width:100%;height:auto">
<table style="border-collapse:collapse">${r.topCategories.map((c) => row(c.name, formatMinutes(c.minutes))).join("") || row("No data found.", "")}</table>
<h2 style="font-size:16px">Top applications</h2>
<table style="border-collapse:collapse">${apps.map((a) => row(a.name, formatMinutes(a.minutes))).join("") || row("No data found.", "")}</table>
<p>Limits reached: ${r.limitsHit.length} · Requests answered: ${r.requestsAnswered.length}</p>
<p><a href="${esc(link)}" style="display:inline-block;background:#0f766e;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Read the whole report</a></p>
${to.unsubscribe ? `<p style="color:#6b7280;font-size:12px">You get this mail because reports are on for this kid. <a href="${esc(to.unsubscribe)}">Stop these reports</a>.</p>` : ""}
</body></html>`;
  return {
    to: to.email,
    subject: r.title,
    text,
    html,
    attachments: [
      { filename: "daily-use.png", content: charts.bar, contentType: "image/png", cid: CHART_CIDS.bar },
      { filename: "categories.png", content: charts.pie, contentType: "image/png", cid: CHART_CIDS.pie },
    ],
  };
}

/**
 * Mails every report still owed to the kid's parent and accepted delegates. Each report is claimed first (one
 * sender wins); a claim whose process died is taken over after 15 minutes; a report whose every send failed
 * goes back to pending for the next run. Delivery is at least once: a crash between the SMTP accept and the
 * state update sends that report again.
 */
export async function mailPendingReports(
  deps: { db: DB; mailer: ReportMailer; publicUrl?: string; secret?: string; log?: Log },
  now: Date,
): Promise<number> {
  const origin = deps.publicUrl ?? "http://localhost:3000";
  let mailed = 0;
  const ids = (await reportsToMail(deps.db, now))[Symbol.iterator]();
  // Two reports at a time: one's PNG charts render in libuv's thread pool while the other is composed and sent.
  const worker = async () => {
    for (let next = ids.next(); !next.done; next = ids.next()) {
      const id = next.value;
      if (!(await claimReportMail(deps.db, id, now))) continue;
      const row = await findReport(deps.db, id);
      if (!row) continue;
      const view = reportView(row);
      const charts = await reportPngs(deps.db, row);
      let sent = 0;
      const recipients = await reportRecipients(deps.db, row.profile_id);
      for (const to of recipients) {
        const unsubscribe = to.parentId && deps.secret ? unsubscribeUrl(origin, deps.secret, to.parentId) : null;
        if (await deps.mailer(composeReportMail(view, charts, { ...to, unsubscribe }, origin))) sent++;
      }
      await setReportMailState(deps.db, id, sent > 0 || recipients.length === 0 ? "sent" : "pending");
      if (sent > 0) mailed++;
      else if (recipients.length) deps.log?.("warn", "report mail not sent", { report: id });
    }
  };
  await Promise.all([worker(), worker()]);
  return mailed;
}

/**
 * The report's charts as PNG: rendered from its stored SVGs the first time the report is mailed, then stored
 * with it (a resend, or a delegate's copy, shows the very same pixels and costs no rendering).
 */
export async function reportPngs(db: DB, row: ReportRow): Promise<{ bar: Buffer; pie: Buffer }> {
  if (row.bar_png && row.pie_png) return { bar: Buffer.from(row.bar_png), pie: Buffer.from(row.pie_png) };
  const [bar, pie] = await Promise.all([chartPng(row.bar_svg), chartPng(row.pie_svg)]);
  await storeReportPngs(db, row.id, bar, pie);
  return { bar, pie };
}
