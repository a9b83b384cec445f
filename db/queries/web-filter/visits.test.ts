import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../index.testing";
import { useDemoFamily } from "../dashboard/dashboard.testing";
import { listVisitedSites, pruneWebVisits, upsertVisits, type VisitBucket } from "./visits";

describe.each(DIALECTS)("the visited sites on %s", (dialect) => {
  const f = useDemoFamily(dialect);
  const bucket = (profileId: string, domain: string, hour: string, o: Partial<VisitBucket> = {}): VisitBucket => ({
    profileId,
    domain,
    hour,
    firstAt: `${hour}:10:00.000Z`,
    lastAt: `${hour}:20:00.000Z`,
    count: 2,
    blocked: false,
    reason: null,
    ...o,
  });
  const rows = (profileId: string) =>
    f.t.db.selectFrom("web_visits").selectAll().where("profile_id", "=", profileId).orderBy("hour").orderBy("domain").execute();

  it("inserts a bucket once per kid, domain and hour, and adds to it: count, first and last, the later decision", async () => {
    const mia = f.mia.profileId;
    expect(await upsertVisits(f.t.db, [bucket(mia, "games.example", "2026-03-01T09")])).toBe(1);
    await upsertVisits(f.t.db, [
      bucket(mia, "games.example", "2026-03-01T09", {
        firstAt: "2026-03-01T09:05:00.000Z",
        lastAt: "2026-03-01T09:15:00.000Z",
        count: 3,
        blocked: true,
        reason: "category:gambling",
      }),
      bucket(mia, "games.example", "2026-03-01T10", { count: 1 }),
    ]);
    const r = await rows(mia);
    expect(r).toHaveLength(2);
    // The earlier last lookup (09:15 < 09:20) does not replace the decision of the later one.
    expect(r[0]).toMatchObject({
      domain: "games.example",
      hour: "2026-03-01T09",
      first_at: "2026-03-01T09:05:00.000Z",
      last_at: "2026-03-01T09:20:00.000Z",
      count: 5,
      blocked: 0,
      reason: null,
    });
    await upsertVisits(f.t.db, [
      bucket(mia, "games.example", "2026-03-01T09", {
        lastAt: "2026-03-01T09:59:00.000Z",
        count: 1,
        blocked: true,
        reason: "rule:games.example",
      }),
    ]);
    expect((await rows(mia))[0]).toMatchObject({ count: 6, last_at: "2026-03-01T09:59:00.000Z", blocked: 1, reason: "rule:games.example" });
    // Another kid's rows are apart.
    expect(await rows(f.leo.profileId)).toEqual([]);
  });

  it("skips a kid that no longer exists and writes the rest", async () => {
    expect(
      await upsertVisits(f.t.db, [bucket("gone-kid", "a.example", "2026-03-01T09"), bucket(f.leo.profileId, "a.example", "2026-03-01T09")]),
    ).toBe(1);
    expect(await rows(f.leo.profileId)).toHaveLength(1);
    await f.t.db.deleteFrom("web_visits").where("profile_id", "=", f.leo.profileId).execute();
  });

  it("lists one day's domains, the latest first, summed over the hours, blocked when any hour was; paged", async () => {
    const leo = f.leo.profileId;
    await upsertVisits(f.t.db, [
      bucket(leo, "news.example", "2026-04-02T08", { lastAt: "2026-04-02T08:30:00.000Z", count: 4 }),
      bucket(leo, "news.example", "2026-04-02T15", { firstAt: "2026-04-02T15:01:00.000Z", lastAt: "2026-04-02T15:40:00.000Z", count: 1 }),
      bucket(leo, "casino.example", "2026-04-02T12", { blocked: true, reason: "category:gambling" }),
      bucket(leo, "school.example", "2026-04-02T10"),
      bucket(leo, "yesterday.example", "2026-04-01T23"),
      bucket(leo, "tomorrow.example", "2026-04-03T00"),
    ]);
    const day = await listVisitedSites(f.t.db, leo, { day: "2026-04-02", limit: 10, offset: 0 });
    expect(day).toEqual([
      {
        domain: "news.example",
        firstAt: "2026-04-02T08:10:00.000Z",
        lastAt: "2026-04-02T15:40:00.000Z",
        count: 5,
        blocked: false,
        reason: null,
      },
      {
        domain: "casino.example",
        firstAt: "2026-04-02T12:10:00.000Z",
        lastAt: "2026-04-02T12:20:00.000Z",
        count: 2,
        blocked: true,
        reason: "category:gambling",
      },
      {
        domain: "school.example",
        firstAt: "2026-04-02T10:10:00.000Z",
        lastAt: "2026-04-02T10:20:00.000Z",
        count: 2,
        blocked: false,
        reason: null,
      },
    ]);
    expect((await listVisitedSites(f.t.db, leo, { day: "2026-04-02", limit: 1, offset: 1 })).map((s) => s.domain)).toEqual([
      "casino.example",
    ]);
    expect(await listVisitedSites(f.t.db, f.mia.profileId, { day: "2026-04-02", limit: 10, offset: 0 })).toEqual([]);
  });

  it("housekeeping removes hours older than the days kept and each kid's oldest rows past the cap; idempotent", async () => {
    await f.t.db.deleteFrom("web_visits").execute();
    const mia = f.mia.profileId;
    const leo = f.leo.profileId;
    const now = new Date("2026-05-31T12:30:00Z");
    await upsertVisits(f.t.db, [
      bucket(mia, "old.example", "2026-05-01T11"),
      bucket(mia, "edge.example", "2026-05-01T12"),
      ...Array.from({ length: 5 }, (_, i) => bucket(mia, `d${i}.example`, "2026-05-30T10")),
      bucket(mia, "newest.example", "2026-05-31T11"),
      bucket(leo, "a.example", "2026-05-31T09"),
      bucket(leo, "b.example", "2026-05-31T10"),
    ]);
    expect(await pruneWebVisits(f.t.db, now, { days: 30, maxRowsPerKid: 4 })).toEqual({ webVisits: 1, webVisitsOverCap: 3 });
    // Mia keeps her newest 4 (d1…d4 tie on the hour: the later names stay), Leo is under the cap.
    expect((await rows(mia)).map((r) => r.domain)).toEqual(["d2.example", "d3.example", "d4.example", "newest.example"]);
    expect((await rows(leo)).map((r) => r.domain)).toEqual(["a.example", "b.example"]);
    expect(await pruneWebVisits(f.t.db, now, { days: 30, maxRowsPerKid: 4 })).toEqual({ webVisits: 0, webVisitsOverCap: 0 });
  });
});
