/** How ratings and store figures are shown (spec 2 §4, §9): rating brackets, expert badges, compact numbers, relative times. */

export type RatingTone = "positive" | "neutral" | "negative" | "grey";

/** Kid average: 3 or more positive; 2 up to 3 neutral; 1 up to 2 negative; otherwise grey. */
export function ratingTone(avg: number | null | undefined): RatingTone {
  if (typeof avg !== "number" || !Number.isFinite(avg)) return "grey";
  if (avg >= 3) return "positive";
  if (avg >= 2) return "neutral";
  if (avg >= 1) return "negative";
  return "grey";
}

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** 1234 → "1.2K", 2500000 → "2.5M"; negative or unreadable → "0". */
export function compactNumber(n: number): string {
  return Number.isFinite(n) && n > 0 ? compact.format(n) : "0";
}

const UNITS: [string, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/** "3 hours ago", "1 day ago"; the future and the present read "just now". */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const seconds = Math.floor((now.getTime() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds) || seconds < 1) return "just now";
  for (const [unit, size] of UNITS) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  }
  return "just now";
}

export const NOT_CERTIFIED = "This app has not been certified yet by our expert team.";

export type BadgeTone = "green" | "orange" | "red" | "grey";

/** The expert rating's badge: green recommended, orange supervision, 16+, and not certified. */
export function expertBadge(value: string | null | undefined): { label: string; tone: BadgeTone; note: string | null } {
  switch (value) {
    case "EXPERT_RECOMMENDATION":
      return { label: "Expert Recommended", tone: "green", note: null };
    case "PARENTAL_SUPERVISION":
      return { label: "Parental Supervision", tone: "orange", note: null };
    case "16+":
      return { label: "16+", tone: "red", note: null };
    default:
      return { label: "Not Certified", tone: "grey", note: NOT_CERTIFIED };
  }
}

/** Stars 0..5 as a percentage (parent rating bars). */
export function starsPercent(avg: number | null | undefined): number {
  return typeof avg === "number" && Number.isFinite(avg) ? Math.max(0, Math.min(100, Math.round((avg / 5) * 100))) : 0;
}
