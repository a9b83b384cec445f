import { formatDayLabel, formatDayRange } from "#core/format";

/** The Day / Week period of the dashboard's activity (spec 1 §5), from URL values and a given "now". */

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
    label: `${week === "current" ? "This Week" : "Previous Week"}, ${formatDayRange(start, new Date(start.getTime() + 6 * DAY_MS))}`,
    prev: week === "current" ? { week: "previous" } : null,
    next: week === "previous" ? { week: "current" } : null,
  };
}
