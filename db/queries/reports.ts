import { appTitle } from "../../core/store";
import { sql } from "kysely";
import type { DB } from "../index";
import type {
  ReportApp,
  ReportCategory,
  ReportDay,
  ReportLimitHit,
  ReportMailState,
  ReportRequest,
  ReportRow,
  ReportsTable,
} from "../schema-reports";
import { GLOBAL_DAILY_LIMIT_KEY } from "./dashboard/limits";
import { categoryLabel, KIDS_APP_PACKAGE } from "./dashboard/usage";
import { nowIso } from "../../core/ids.server";

/** A kid whose parent wants reports, and how often. */
export interface ReportTarget {
  profileId: string;
  kidName: string;
  parentId: string;
  kind: "Weekly" | "Monthly";
  timeZone: string;
  /** when the kid (or its first phone) joined: no report for a period that ended before */
  since: string;
}

/** Kids of parents whose frequency is Weekly or Monthly (Off builds nothing), in a stable order. */
export async function reportTargets(db: DB, opts: { profileIds?: string[] } = {}): Promise<ReportTarget[]> {
  let q = db
    .selectFrom("kid_profiles as k")
    .innerJoin("parents as p", "p.id", "k.parent_id")
    .select((eb) => [
      "k.id as profileId",
      "k.name as kidName",
      "p.id as parentId",
      "p.kids_report_type as kind",
      "p.time_zone as timeZone",
      "k.created_at as kidCreatedAt",
      eb
        .selectFrom("devices as d")
        .select((e) => e.fn.min("d.created_at").as("m"))
        .whereRef("d.profile_id", "=", "k.id")
        .as("firstDeviceAt"),
    ])
    .where("p.kids_report_type", "in", ["Weekly", "Monthly"]);
  if (opts.profileIds) q = q.where("k.id", "in", opts.profileIds.length ? opts.profileIds : [""]);
  const rows = await q.orderBy("k.id").execute();
  return rows.map(({ kidCreatedAt, firstDeviceAt, ...r }) => ({
    ...r,
    kind: r.kind as "Weekly" | "Monthly",
    since: firstDeviceAt && String(firstDeviceAt) < kidCreatedAt ? String(firstDeviceAt) : kidCreatedAt,
  }));
}

/** Period starts already built for these kids: `${profileId}|${kind}|${start}`. */
export async function existingReportKeys(db: DB, profileIds: string[], since: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for (let i = 0; i < profileIds.length; i += 500) {
    const rows = await db
      .selectFrom("reports")
      .select(["profile_id", "kind", "period_start"])
      .where("profile_id", "in", profileIds.slice(i, i + 500))
      .where("period_start", ">=", since)
      .execute();
    for (const r of rows) keys.add(`${r.profile_id}|${r.kind}|${r.period_start}`);
  }
  return keys;
}

export interface HourUsage {
  hour: string;
  packageName: string;
  minutes: number;
}

/** Hour buckets of all the kid's phones in [from, to) (UTC instants), the kids app itself left out. */
export async function hourlyUsage(db: DB, profileId: string, from: string, to: string): Promise<HourUsage[]> {
  const rows = await db
    .selectFrom("app_usage_hourly as h")
    .innerJoin("devices as d", "d.id", "h.device_id")
    .select((eb) => ["h.hour", "h.package_name", eb.fn.sum<number>("h.minutes").as("minutes")])
    .where("d.profile_id", "=", profileId)
    .where("h.hour", ">=", from)
    .where("h.hour", "<", to)
    .where("h.package_name", "!=", KIDS_APP_PACKAGE)
    .groupBy(["h.hour", "h.package_name"])
    .execute();
  return rows.map((r) => ({ hour: r.hour, packageName: r.package_name, minutes: Number(r.minutes ?? 0) }));
}

/** Total minutes of the kid's phones in [from, to). */
export async function totalMinutes(db: DB, profileId: string, from: string, to: string): Promise<number> {
  const r = await db
    .selectFrom("app_usage_hourly as h")
    .innerJoin("devices as d", "d.id", "h.device_id")
    .select((eb) => eb.fn.sum<number>("h.minutes").as("minutes"))
    .where("d.profile_id", "=", profileId)
    .where("h.hour", ">=", from)
    .where("h.hour", "<", to)
    .where("h.package_name", "!=", KIDS_APP_PACKAGE)
    .executeTakeFirst();
  return Number(r?.minutes ?? 0);
}

export interface AppInfo {
  name: string;
  icon: string | null;
  category: string;
  categoryName: string;
  /** the app's daily limit in minutes, 0 when off */
  limit: number;
}

export interface KidLimits {
  apps: Map<string, AppInfo>;
  /** category id → { name, daily limit minutes } (enabled limits only) */
  categories: Map<string, { name: string; limit: number }>;
  categoryNames: Map<string, string>;
  /** the phone's global daily limit, 0 when off */
  device: number;
}

/** Names, icons, categories and the daily limits that apply to the kid now. */
export async function kidLimits(db: DB, profileId: string): Promise<KidLimits> {
  const [apps, names, cats, global] = await Promise.all([
    db
      .selectFrom("profile_apps as pa")
      .leftJoin("catalog_apps as c", "c.package_name", "pa.package_name")
      .select(["pa.package_name", "c.title", "c.icon", "pa.play_store_category", "pa.enable_daily_limit", "pa.daily_limit_minutes"])
      .where("pa.profile_id", "=", profileId)
      .execute(),
    db.selectFrom("store_categories").select(["id", "name"]).execute(),
    db
      .selectFrom("category_limits")
      .select(["category", "daily_limit_minutes"])
      .where("profile_id", "=", profileId)
      .where("enable_daily_limit", "=", 1)
      .execute(),
    db
      .selectFrom("global_settings as g")
      .innerJoin("devices as d", "d.id", "g.device_id")
      .select("g.value")
      .where("d.profile_id", "=", profileId)
      .where("g.key", "=", GLOBAL_DAILY_LIMIT_KEY)
      .execute(),
  ]);
  const categoryNames = new Map(names.map((n) => [n.id, n.name]));
  const appMap = new Map<string, AppInfo>();
  for (const a of apps) {
    const category = a.play_store_category || "Others";
    appMap.set(a.package_name, {
      name: appTitle(a.title, a.package_name),
      icon: a.icon ?? null,
      category,
      categoryName: categoryLabel(category, categoryNames),
      limit: a.enable_daily_limit ? Number(a.daily_limit_minutes) : 0,
    });
  }
  const categories = new Map(
    cats
      .filter((c) => c.daily_limit_minutes > 0)
      .map((c) => [c.category, { name: categoryLabel(c.category, categoryNames), limit: Number(c.daily_limit_minutes) }]),
  );
  const device = Math.max(0, ...global.map((g) => Number.parseInt(g.value, 10)).filter((n) => Number.isFinite(n)));
  return { apps: appMap, categories, categoryNames, device };
}

export type AnsweredRequest = ReportRequest;

/** Requests the parents approved or rejected in [from, to). */
export async function answeredRequests(db: DB, profileId: string, from: string, to: string): Promise<AnsweredRequest[]> {
  const rows = await db
    .selectFrom("app_requests as r")
    .leftJoin("catalog_apps as c", "c.package_name", "r.package_name")
    .select(["r.package_name", "c.title", "r.request_type", "r.status", "r.updated_at"])
    .where("r.profile_id", "=", profileId)
    .where("r.status", "in", ["Approved", "Rejected"])
    .where("r.updated_at", ">=", from)
    .where("r.updated_at", "<", to)
    .orderBy("r.updated_at")
    .execute();
  return rows.map((r) => ({
    packageName: r.package_name,
    name: appTitle(r.title, r.package_name),
    type: r.request_type,
    status: r.status,
    at: r.updated_at,
  }));
}

export type NewReport = Omit<ReportsTable, "mail_claimed_at">;

/** Inserts a report unless its kid, kind and period already have one: true when this call wrote it. */
export async function insertReport(db: DB, row: NewReport): Promise<boolean> {
  const r = await db
    .insertInto("reports")
    .values({ ...row, mail_claimed_at: null })
    .onConflict((oc) => oc.columns(["profile_id", "kind", "period_start"]).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Mail the report job owes: pending ones, and sends claimed long ago by a process that died. */
export async function reportsToMail(db: DB, now: Date, staleMs = 15 * 60_000): Promise<string[]> {
  const stale = nowIso(new Date(now.getTime() - staleMs));
  const rows = await db
    .selectFrom("reports")
    .select("id")
    .where((eb) => eb.or([eb("mail_state", "=", "pending"), eb.and([eb("mail_state", "=", "sending"), eb("mail_claimed_at", "<", stale)])]))
    .orderBy("created_at")
    .execute();
  return rows.map((r) => r.id);
}

/** Takes the report's mail for this process (one claim wins, even across processes). */
export async function claimReportMail(db: DB, id: string, now: Date, staleMs = 15 * 60_000): Promise<boolean> {
  const stale = nowIso(new Date(now.getTime() - staleMs));
  const r = await db
    .updateTable("reports")
    .set({ mail_state: "sending", mail_claimed_at: nowIso(now) })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("mail_state", "=", "pending"), eb.and([eb("mail_state", "=", "sending"), eb("mail_claimed_at", "<", stale)])]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setReportMailState(db: DB, id: string, state: ReportMailState): Promise<void> {
  await db.updateTable("reports").set({ mail_state: state }).where("id", "=", id).execute();
}

/** Stores the PNG renderings of a report's charts, once (a report's images never change after the fact). */
export async function storeReportPngs(db: DB, id: string, bar: Buffer, pie: Buffer): Promise<void> {
  await db.updateTable("reports").set({ bar_png: bar, pie_png: pie }).where("id", "=", id).where("bar_png", "is", null).execute();
}

/** Who gets a kid's report by mail: the kid's parent and every accepted delegate of the kid (but those who turned reports Off). */
export async function reportRecipients(db: DB, profileId: string): Promise<{ email: string; name: string; parentId: string | null }[]> {
  const owner = await db
    .selectFrom("kid_profiles as k")
    .innerJoin("parents as p", "p.id", "k.parent_id")
    .select(["p.email", "p.name", "p.id"])
    .where("k.id", "=", profileId)
    .executeTakeFirst();
  const delegates = await db
    .selectFrom("delegation_kids as dk")
    .innerJoin("delegations as d", "d.id", "dk.delegation_id")
    .leftJoin("parents as p", "p.email", "d.delegate_email")
    .select(["d.delegate_email", "d.delegate_name", "p.id", "p.kids_report_type"])
    .where("dk.profile_id", "=", profileId)
    .where("d.status", "=", "Accepted")
    .execute();
  const out = owner ? [{ email: owner.email, name: owner.name, parentId: owner.id as string | null }] : [];
  for (const d of delegates) {
    // A delegate who turned reports Off (their own unsubscribe link) gets none.
    if (d.kids_report_type === "Off") continue;
    if (!out.some((o) => o.email.toLowerCase() === d.delegate_email.toLowerCase()))
      out.push({ email: d.delegate_email, name: d.delegate_name, parentId: d.id ?? null });
  }
  return out;
}

export async function findReport(db: DB, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A kid's reports whose period starts in the given month (1–12) and year, newest first. */
export async function listReports(db: DB, profileId: string, year: number, month: number) {
  const start = `${year}-${String(month).padStart(2, "0")}-01`;
  const end = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
  return db
    .selectFrom("reports")
    .select(["id", "title", "kind", "period_start", "period_end", "total_minutes"])
    .where("profile_id", "=", profileId)
    .where("period_start", ">=", start)
    .where("period_start", "<", end)
    .orderBy("period_start", "desc")
    .orderBy("kind")
    .execute();
}

export async function countReports(db: DB): Promise<number> {
  const r = await db
    .selectFrom("reports")
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function setParentTimeZone(db: DB, parentId: string, timeZone: string, now = new Date()): Promise<void> {
  await db
    .updateTable("parents")
    .set({ time_zone: timeZone, updated_at: nowIso(now) })
    .where("id", "=", parentId)
    .execute();
}

/** A stored report as the page and the mail read it (JSON columns parsed; chart images left out). */
export interface ReportView {
  id: string;
  profileId: string;
  kind: "Weekly" | "Monthly";
  periodStart: string;
  periodEnd: string;
  title: string;
  totalMinutes: number;
  previousMinutes: number;
  dailyUsage: ReportDay[];
  topApps: ReportApp[];
  topCategories: ReportCategory[];
  limitsHit: ReportLimitHit[];
  requestsAnswered: ReportRequest[];
}

export function reportView(r: ReportRow): ReportView {
  return {
    id: r.id,
    profileId: r.profile_id,
    kind: r.kind,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    title: r.title,
    totalMinutes: r.total_minutes,
    previousMinutes: r.previous_minutes,
    dailyUsage: JSON.parse(r.daily_usage) as ReportDay[],
    topApps: JSON.parse(r.top_apps) as ReportApp[],
    topCategories: JSON.parse(r.top_categories) as ReportCategory[],
    limitsHit: JSON.parse(r.limits_hit) as ReportLimitHit[],
    requestsAnswered: JSON.parse(r.requests_answered) as ReportRequest[],
  };
}

export async function findParentTimeZone(db: DB, parentId: string): Promise<string | undefined> {
  return (await db.selectFrom("parents").select("time_zone").where("id", "=", parentId).executeTakeFirst())?.time_zone;
}
