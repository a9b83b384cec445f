import { formatDayLabel } from "./format";

/**
 * Pure rules of the dashboard and device pages (spec 1 §4, §5, §9). No I/O, no dates read from the clock:
 * every function takes what it needs, so the table tests in rules.test.ts pin them down.
 */

export const TIME_STEP = 15;
export const LIST_PAGE = 3;
export const KIDS_PAGE_SIZE = 50;

/** The kid the dashboard opens on when the URL names none: the first with a phone, else the first. */
export function defaultKidId(kids: { id: string; serialNumber: string | null }[]): string | null {
  return kids.find((k) => k.serialNumber)?.id ?? kids[0]?.id ?? null;
}
export const NOTIFICATIONS_PAGE = 20;
export const MAP_BBOX_MARGIN = 0.001;
export const MAP_ZOOM = 12;
export const MAP_EXTERNAL_ZOOM = 13;
export const BIRTH_YEAR_MIN = 2000;
export const MAX_PICTURE_BYTES = 3 * 1024 * 1024;
export const MULTIPLE_OF_15_MESSAGE = "Please enter time multiple of 15.";
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;
export const REPORT_TYPES = ["Off", "Weekly", "Monthly"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const DEFAULT_REPORT_TYPE: ReportType = "Weekly";

// ---------------------------------------------------------------- minutes

/** Any input (text, NaN, negative) to a whole, non-negative number of minutes. Negative values become 0. */
export function toMinutes(value: unknown): number {
  const n = typeof value === "number" ? value : Number.parseFloat(String(value ?? "").trim());
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.floor(n);
}

/** On blur: rounds up to the next multiple of 15 (never below 0). */
export function roundUpToStep(value: unknown, step = TIME_STEP): number {
  const n = typeof value === "number" ? value : Number.parseFloat(String(value ?? "").trim());
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.ceil(n / step) * step;
}

/** The stepper's +/- buttons: add or subtract 15, never below 0. */
export function stepMinutes(value: unknown, direction: 1 | -1, step = TIME_STEP): number {
  return Math.max(0, toMinutes(value) + direction * step);
}

export function isMultipleOfStep(value: number, step = TIME_STEP): boolean {
  return Number.isInteger(value) && value >= 0 && value % step === 0;
}

/** The daily-limit switch: off sets 0 minutes, on sets 15. */
export function limitAfterToggle(on: boolean): number {
  return on ? TIME_STEP : 0;
}

/**
 * Saving the global daily limit: a non-multiple of 15 is refused, the field is reset to 0 and the spec's
 * message shown; otherwise the (non-negative) value is saved.
 */
export function checkDailyLimit(raw: unknown): { ok: true; minutes: number } | { ok: false; minutes: 0; message: string } {
  const n = typeof raw === "number" ? raw : Number.parseFloat(String(raw ?? "").trim());
  if (!Number.isFinite(n) || n <= 0) return { ok: true, minutes: 0 };
  if (!isMultipleOfStep(n)) return { ok: false, minutes: 0, message: MULTIPLE_OF_15_MESSAGE };
  return { ok: true, minutes: n };
}

/** Location tracking: off sets the interval to 0; on with no interval uses the default 15. */
export function trackingInterval(enabled: boolean, interval: unknown): number {
  if (!enabled) return 0;
  const n = roundUpToStep(interval);
  return n === 0 ? TIME_STEP : n;
}

/** 135 → "2h 15m", 45 → "45m", 0 → "0m". */
export function formatMinutes(total: number): string {
  const m = Math.max(0, Math.round(total));
  const h = Math.floor(m / 60);
  const r = m % 60;
  if (h === 0) return `${r}m`;
  return r === 0 ? `${h}h` : `${h}h ${String(r).padStart(2, "0")}m`;
}

// ---------------------------------------------------------------- age and recommendation

/** Completed years on the given date, from birth month (1–12) and year. */
export function kidAge(birthMonth: number, birthYear: number, today: Date): number {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth() + 1;
  return Math.max(0, y - birthYear - (m < birthMonth ? 1 : 0));
}

export type RecommendationBracket = "under-2" | "2-to-4" | "4-to-8" | "9-to-10" | "10-plus";

export interface Recommendation {
  bracket: RecommendationBracket;
  title: string;
  text: string;
  /** Weekly budget in hours (10 and over: one hour per year of age, as media vouchers). */
  weeklyHours?: number;
  voucherTemplate?: boolean;
}

/**
 * Spec 1 §9, exactly: under 2 avoid screens; 2 to under 4, 5–10 minutes a day (1 hour at most as an exception);
 * 4 to under 8, 30–60 minutes a day; 8 to under 9 falls between brackets (no recommendation); 9 to under 10,
 * 30–60 minutes; 10 and over, a weekly budget of one hour per year of age given as media vouchers.
 */
export function screenTimeRecommendation(age: number): Recommendation | null {
  if (!Number.isFinite(age) || age < 0) return null;
  if (age < 2) return { bracket: "under-2", title: "Under 2 years", text: "Avoid screens altogether." };
  if (age < 4)
    return { bracket: "2-to-4", title: "2 to 4 years", text: "5 to 10 minutes a day, and at most 1 hour as an exception." };
  if (age < 8) return { bracket: "4-to-8", title: "4 to 8 years", text: "30 to 60 minutes a day at most." };
  if (age < 9) return null;
  if (age < 10) return { bracket: "9-to-10", title: "9 to 10 years", text: "30 to 60 minutes a day at most." };
  const hours = Math.floor(age);
  return {
    bracket: "10-plus",
    title: "10 years and over",
    text: `A weekly budget of one hour per year of age: ${hours} hours a week, given as media vouchers.`,
    weeklyHours: hours,
    voucherTemplate: true,
  };
}

// ---------------------------------------------------------------- icons and colours

export type BatteryIcon = "full" | "half" | "low" | "unknown";

/** Full above 80, half from 20 to 80, low below 20. */
export function batteryIcon(percent: number | null | undefined): BatteryIcon {
  if (percent == null || !Number.isFinite(percent)) return "unknown";
  if (percent > 80) return "full";
  if (percent >= 20) return "half";
  return "low";
}

export type AckColour = "green" | "warning" | "off";

/** Sleep-mode and protection icons: green once the phone acknowledged, warning-coloured while pending. */
export function ackColour(enabled: boolean, acknowledged: boolean): AckColour {
  if (!acknowledged) return "warning";
  return enabled ? "green" : "off";
}

export type BadgeColour = "green" | "yellow" | "red" | "grey";

/** Delegated-access status badges: Accepted green, Pending yellow, Rejected red, anything else grey. */
export function statusBadgeColour(status: string | null | undefined): BadgeColour {
  switch (status) {
    case "Accepted":
      return "green";
    case "Pending":
      return "yellow";
    case "Rejected":
      return "red";
    default:
      return "grey";
  }
}

/** Progress towards a limit in percent (0–100); red at or over the limit. No limit (0) means no bar colour. */
export function limitProgress(usedMinutes: number, limitMinutes: number): { percent: number; over: boolean } {
  if (!(limitMinutes > 0)) return { percent: 0, over: false };
  const used = Math.max(0, usedMinutes);
  return { percent: Math.min(100, Math.round((used / limitMinutes) * 100)), over: used >= limitMinutes };
}

export function isManualInstall(playStoreCategory: string | null | undefined): boolean {
  return playStoreCategory === "Others";
}

// ---------------------------------------------------------------- list paging

/** The visible count from the URL: 3 at first, grows by 3; anything odd falls back to a valid count. */
export function visibleCount(raw: string | null | undefined, page = LIST_PAGE, max = 300): number {
  const n = Number.parseInt(String(raw ?? ""), 10);
  if (!Number.isFinite(n) || n <= page) return page;
  return Math.min(max, Math.ceil(n / page) * page);
}

export function listPaging(count: number, total: number, page = LIST_PAGE) {
  return {
    showMore: count < total ? count + page : null,
    showLess: count > page ? page : null,
  };
}

// ---------------------------------------------------------------- day / week navigation

export type FilterType = "day" | "week";
export type WeekType = "current" | "previous";

export interface Period {
  filter: FilterType;
  /** The day shown (Day filter), YYYY-MM-DD in UTC. */
  date: string;
  week: WeekType;
  /** Inclusive first day and exclusive end, YYYY-MM-DD. */
  from: string;
  to: string;
  days: number;
  label: string;
  prev: { date?: string; week?: WeekType } | null;
  next: { date?: string; week?: WeekType } | null;
}

const DAY_MS = 86_400_000;

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function parseDay(value: string | null | undefined): Date | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || isoDay(d) !== value ? null : d;
}

/** Monday 00:00 UTC of the week containing `d`. */
export function weekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const offset = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - offset * DAY_MS);
}

/**
 * The period to show from URL values. Day steps 24 hours (never into the future); Week toggles This Week and
 * Previous Week. Unknown values fall back to today / this week.
 */
export function resolvePeriod(input: { filter?: string | null; date?: string | null; week?: string | null }, now: Date): Period {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const filter: FilterType = input.filter === "week" ? "week" : "day";
  const week: WeekType = input.week === "previous" ? "previous" : "current";
  let day = parseDay(input.date) ?? today;
  if (day.getTime() > today.getTime()) day = today;
  const date = isoDay(day);
  if (filter === "day") {
    const isToday = day.getTime() === today.getTime();
    return {
      filter,
      date,
      week,
      from: date,
      to: isoDay(new Date(day.getTime() + DAY_MS)),
      days: 1,
      label: isToday ? "Today" : formatDayLabel(day),
      prev: { date: isoDay(new Date(day.getTime() - DAY_MS)) },
      next: isToday ? null : { date: isoDay(new Date(day.getTime() + DAY_MS)) },
    };
  }
  const thisWeek = weekStart(today);
  const start = week === "current" ? thisWeek : new Date(thisWeek.getTime() - 7 * DAY_MS);
  return {
    filter,
    date,
    week,
    from: isoDay(start),
    to: isoDay(new Date(start.getTime() + 7 * DAY_MS)),
    days: 7,
    label: week === "current" ? "This Week" : "Previous Week",
    prev: week === "current" ? { week: "previous" } : null,
    next: week === "previous" ? { week: "current" } : null,
  };
}

// ---------------------------------------------------------------- map

export function mapBbox(lat: number, long: number, margin = MAP_BBOX_MARGIN): [number, number, number, number] {
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  return [r(long - margin), r(lat - margin), r(long + margin), r(lat + margin)];
}

export function externalMapUrl(lat: number, long: number, zoom = MAP_EXTERNAL_ZOOM): string {
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${long}#map=${zoom}/${lat}/${long}`;
}

export function localMapHref(lat: number, long: number): string {
  const params = new URLSearchParams({ lat: String(lat), long: String(long), zoom: String(MAP_ZOOM), bbox: mapBbox(lat, long).join(",") });
  return `/map?${params}`;
}

// ---------------------------------------------------------------- pictures

/** The picture's real type from its first bytes (never the browser's claim). */
export function sniffImageType(bytes: Uint8Array): "image/png" | "image/jpeg" | "image/gif" | "image/webp" | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a)
    return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61)
    return "image/gif";
  if (b.length >= 12 && b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50)
    return "image/webp";
  return null;
}
