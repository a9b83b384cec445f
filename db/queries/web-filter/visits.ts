import { sql } from "kysely";
import type { DB } from "../../index";

/** Defaults of WEB_LOG_DAYS and WEB_LOG_MAX_ROWS_PER_KID (core/env.server.ts). */
export const WEB_LOG_DAYS = 30;
export const WEB_LOG_MAX_ROWS_PER_KID = 20_000;

/** One kid's lookups of one domain in one UTC hour, as the recorder coalesced them. */
export interface VisitBucket {
  profileId: string;
  domain: string;
  /** `YYYY-MM-DDTHH` (UTC). */
  hour: string;
  firstAt: string;
  lastAt: string;
  count: number;
  blocked: boolean;
  reason: string | null;
}

/** Rows of one INSERT: 8 values each, far under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

/**
 * Adds a batch of buckets: a new (kid, domain, hour) is inserted, an existing one adds the count, widens first/last
 * and takes the decision of the later lookup. One transaction, so a failed batch is retried whole, never counted twice.
 * Buckets of a kid removed since the lookup are skipped.
 */
export async function upsertVisits(db: DB, buckets: readonly VisitBucket[]): Promise<number> {
  if (!buckets.length) return 0;
  return db.transaction().execute(async (trx) => {
    const kids = [...new Set(buckets.map((b) => b.profileId))];
    const live = new Set((await trx.selectFrom("kid_profiles").select("id").where("id", "in", kids).execute()).map((r) => r.id));
    const rows = buckets
      .filter((b) => live.has(b.profileId))
      .map((b) => ({
        profile_id: b.profileId,
        domain: b.domain,
        hour: b.hour,
        first_at: b.firstAt,
        last_at: b.lastAt,
        count: b.count,
        blocked: b.blocked ? 1 : 0,
        reason: b.reason,
      }));
    for (let i = 0; i < rows.length; i += CHUNK) {
      await trx
        .insertInto("web_visits")
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(["profile_id", "hour", "domain"]).doUpdateSet({
            count: sql`web_visits.count + excluded.count`,
            first_at: sql`case when excluded.first_at < web_visits.first_at then excluded.first_at else web_visits.first_at end`,
            blocked: sql`case when excluded.last_at >= web_visits.last_at then excluded.blocked else web_visits.blocked end`,
            reason: sql`case when excluded.last_at >= web_visits.last_at then excluded.reason else web_visits.reason end`,
            // Last: the cases above compare with the stored last_at (SQL reads the row as it was either way).
            last_at: sql`case when excluded.last_at > web_visits.last_at then excluded.last_at else web_visits.last_at end`,
          }),
        )
        .execute();
    }
    return rows.length;
  });
}

/** A domain of one day's visited sites. */
export interface VisitedSite {
  domain: string;
  firstAt: string;
  lastAt: string;
  count: number;
  /** Some lookup of the day was blocked; `reason` says why (the latest blocked hour's reason). */
  blocked: boolean;
  reason: string | null;
}

/** The day's domains of a kid (a UTC day, `YYYY-MM-DD`), the latest first: `limit` from `offset`. */
export async function listVisitedSites(
  db: DB,
  profileId: string,
  q: { day: string; limit: number; offset: number },
): Promise<VisitedSite[]> {
  const next = new Date(Date.parse(`${q.day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const rows = await db
    .selectFrom("web_visits")
    .select((eb) => [
      "domain",
      eb.fn.min("first_at").as("first_at"),
      eb.fn.max("last_at").as("last_at"),
      eb.fn.sum<string | number>("count").as("count"),
      eb.fn.max("blocked").as("blocked"),
      eb.fn.max(sql<string | null>`case when blocked = 1 then reason end`).as("reason"),
    ])
    .where("profile_id", "=", profileId)
    .where("hour", ">=", q.day)
    .where("hour", "<", next)
    .groupBy("domain")
    .orderBy(sql`max(last_at)`, "desc")
    .orderBy("domain")
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return rows.map((r) => ({
    domain: r.domain,
    firstAt: r.first_at,
    lastAt: r.last_at,
    count: Number(r.count),
    blocked: Number(r.blocked) === 1,
    reason: r.reason ?? null,
  }));
}

/**
 * Housekeeping: removes the hours older than `days` and, per kid, the oldest rows past `maxRowsPerKid`. Idempotent.
 * Returns the rows removed by age and by the cap.
 */
export async function pruneWebVisits(
  db: DB,
  now: Date,
  o: { days?: number; maxRowsPerKid?: number } = {},
): Promise<{ webVisits: number; webVisitsOverCap: number }> {
  const days = o.days ?? WEB_LOG_DAYS;
  const cap = o.maxRowsPerKid ?? WEB_LOG_MAX_ROWS_PER_KID;
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 13);
  const old = await db.deleteFrom("web_visits").where("hour", "<", cutoff).executeTakeFirst();
  let overCap = 0;
  const over = await db
    .selectFrom("web_visits")
    .select("profile_id")
    .groupBy("profile_id")
    .having((eb) => eb.fn.countAll(), ">", cap)
    .execute();
  for (const { profile_id } of over) {
    // The newest `cap` rows stay: the first row past them and every older one go.
    const edge = await db
      .selectFrom("web_visits")
      .select(["hour", "domain"])
      .where("profile_id", "=", profile_id)
      .orderBy("hour", "desc")
      .orderBy("domain", "desc")
      .limit(1)
      .offset(cap)
      .executeTakeFirst();
    if (!edge) continue;
    const r = await db
      .deleteFrom("web_visits")
      .where("profile_id", "=", profile_id)
      .where((eb) => eb.or([eb("hour", "<", edge.hour), eb.and([eb("hour", "=", edge.hour), eb("domain", "<=", edge.domain)])]))
      .executeTakeFirst();
    overCap += Number(r.numDeletedRows);
  }
  return { webVisits: Number(old.numDeletedRows), webVisitsOverCap: overCap };
}
