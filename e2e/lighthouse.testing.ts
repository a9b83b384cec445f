import type { Result } from "lighthouse";

/** Issue 53 item 10: Lighthouse's mobile run (its defaults: mobile form factor, simulated throttling) must score at least these. */
export const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, "best-practices": 100 } as const;
export type LighthouseCategory = keyof typeof LIGHTHOUSE_TARGETS;
export const LIGHTHOUSE_CATEGORIES = Object.keys(LIGHTHOUSE_TARGETS) as LighthouseCategory[];

/**
 * Third-party hosts the run blocks: the map's tile server (OpenStreetMap). A machine without internet (CI, this
 * sandbox) cannot reach it, and Chrome logs each failed tile as a console error; blocked requests are not counted
 * (Lighthouse ignores `ERR_BLOCKED_BY_CLIENT.Inspector`). The map's own page and its base map still load.
 */
export const BLOCKED_THIRD_PARTY = ["*.tile.openstreetmap.org/*"];

/** The metrics that make up the performance score (their own scores 0–1 and values), for a failure message. */
const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

export const categoryScore = (lhr: Result, id: LighthouseCategory) => Math.round((lhr.categories[id]?.score ?? 0) * 100);

/**
 * Every category below its target, each with the audits that cost it points (weight > 0 and score < 1; for
 * performance the metrics and the opportunities with savings). Empty when every target is met.
 */
export function lighthouseFailures(lhr: Result, targets: Record<LighthouseCategory, number> = LIGHTHOUSE_TARGETS): string[] {
  const lines: string[] = [];
  for (const id of LIGHTHOUSE_CATEGORIES) {
    const score = categoryScore(lhr, id);
    if (score >= targets[id]) continue;
    lines.push(`${id}: ${score} < ${targets[id]}`);
    const audit = (ref: string) => lhr.audits[ref];
    if (id === "performance") {
      for (const m of METRICS) {
        const a = audit(m);
        if (a) lines.push(`  ${m}: ${a.displayValue ?? ""} (score ${a.score ?? "n/a"})`);
      }
      for (const a of Object.values(lhr.audits)) {
        const d = a.details as { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number } | undefined;
        if (d?.type === "opportunity" && ((d.overallSavingsMs ?? 0) > 0 || (d.overallSavingsBytes ?? 0) > 0))
          lines.push(`  opportunity ${a.id}: ${a.displayValue ?? ""}`);
      }
      continue;
    }
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const a = audit(ref.id);
      if (!a || ref.weight === 0 || a.score === null || a.score >= 1) continue;
      const items = ((a.details as { items?: unknown[] } | undefined)?.items ?? []).slice(0, 5);
      lines.push(`  ${a.id}: ${a.title}`);
      for (const item of items) lines.push(`    ${describeItem(item)}`);
    }
  }
  return lines;
}

/** One row of an audit's table, short: the node's snippet, the URL and the message, whichever it has. */
function describeItem(item: unknown): string {
  const i = item as { node?: { snippet?: string }; url?: string; description?: string; sourceLocation?: { url?: string } };
  return [i.node?.snippet, i.url ?? i.sourceLocation?.url, i.description].filter(Boolean).join(" · ").slice(0, 300);
}
