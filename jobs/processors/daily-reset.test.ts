import { beforeEach, describe, expect, it } from "vitest";
import { useDemoFamily } from "../../db/queries/dashboard/dashboard.testing";
import { createParent } from "../../db/queries/parents";
import { DIALECTS } from "../../db/index.testing";
import type { DisabledType } from "../../db/schema";
import { DAILY_BLOCKS, familyCutoffs, nextResetAt, resetDailyBlocks, scheduleDailyReset } from "./daily-reset";

// Each family is reset at its own midnight (issue 21): Mia's family lives in Europe/London, Leo is moved to a
// second family in America/Los_Angeles. One app of each carries a daily block; the job runs at chosen instants.
describe.each(DIALECTS)("daily reset at each family's midnight (%s)", (dialect) => {
  const f = useDemoFamily(dialect);
  let apps: { mia: string; leo: string };

  beforeEach(async () => {
    const db = f.t.db;
    const mia = await db.selectFrom("kid_profiles").select("parent_id").where("id", "=", f.mia.profileId).executeTakeFirstOrThrow();
    await db.updateTable("parents").set({ time_zone: "Europe/London" }).where("id", "=", mia.parent_id).execute();
    let la = await db.selectFrom("parents").select("id").where("email", "=", "la@example.test").executeTakeFirst();
    la ??= await createParent(db, { email: "la@example.test", name: "Lou", passwordHash: null });
    await db.updateTable("parents").set({ time_zone: "America/Los_Angeles" }).where("id", "=", la.id).execute();
    await db.updateTable("kid_profiles").set({ parent_id: la.id }).where("id", "=", f.leo.profileId).execute();
    await db
      .updateTable("profile_apps")
      .set({ is_app_disabled: 0, disabled_type: null })
      .where("disabled_type", "in", DAILY_BLOCKS)
      .execute();
    const first = (profileId: string) =>
      db
        .selectFrom("profile_apps")
        .select("id")
        .where("profile_id", "=", profileId)
        .orderBy("package_name")
        .limit(1)
        .executeTakeFirstOrThrow();
    apps = { mia: (await first(f.mia.profileId)).id, leo: (await first(f.leo.profileId)).id };
  });

  const block = (id: string, at: string, type: DisabledType = "Overuse") =>
    f.t.db.updateTable("profile_apps").set({ is_app_disabled: 1, disabled_type: type, updated_at: at }).where("id", "=", id).execute();
  const blocked = async (id: string) =>
    (await f.t.db.selectFrom("profile_apps").select("is_app_disabled").where("id", "=", id).executeTakeFirstOrThrow()).is_app_disabled ===
    1;

  it("London's kid is reset at London's midnight, Los Angeles' kid eight hours later; a second run changes nothing", async () => {
    await block(apps.mia, "2026-01-14T20:00:00.000Z");
    await block(apps.leo, "2026-01-14T20:00:00.000Z");
    const londonMidnight = new Date("2026-01-15T00:05:00Z");
    expect(await resetDailyBlocks(f.t.db, new Date("2026-01-14T23:59:00Z"))).toBe(0);
    expect(await resetDailyBlocks(f.t.db, londonMidnight)).toBe(1);
    expect([await blocked(apps.mia), await blocked(apps.leo)]).toEqual([false, true]);
    expect(await resetDailyBlocks(f.t.db, londonMidnight)).toBe(0);
    expect(await resetDailyBlocks(f.t.db, new Date("2026-01-15T07:59:00Z"))).toBe(0);
    expect(await resetDailyBlocks(f.t.db, new Date("2026-01-15T08:00:00Z"))).toBe(1);
    expect(await blocked(apps.leo)).toBe(false);
  });

  it("a block reported after the kid's midnight is today's; the parent's own block stays", async () => {
    await block(apps.mia, "2026-01-15T00:01:00.000Z");
    await block(apps.leo, "2026-01-10T00:00:00.000Z", "Manually");
    expect(await resetDailyBlocks(f.t.db, new Date("2026-01-15T12:00:00Z"))).toBe(0);
    expect([await blocked(apps.mia), await blocked(apps.leo)]).toEqual([true, true]);
  });

  it("daylight saving: Los Angeles' midnight after spring-forward is 07:00 UTC, London's 23:00 UTC", async () => {
    await block(apps.leo, "2026-03-08T10:00:00.000Z"); // 03:00 PDT, the spring-forward day
    expect(await resetDailyBlocks(f.t.db, new Date("2026-03-09T06:59:00Z"))).toBe(0);
    expect(await resetDailyBlocks(f.t.db, new Date("2026-03-09T07:00:00Z"))).toBe(1);
    await block(apps.mia, "2026-03-29T12:00:00.000Z"); // British Summer Time began at 01:00 that morning
    expect(await resetDailyBlocks(f.t.db, new Date("2026-03-29T22:59:00Z"))).toBe(0);
    expect(await resetDailyBlocks(f.t.db, new Date("2026-03-29T23:00:00Z"))).toBe(1);
  });

  it("the cut-offs and the next reset follow the families' zones", async () => {
    const now = new Date("2026-01-14T12:00:00Z");
    const cutoffs = Object.fromEntries((await familyCutoffs(f.t.db, now)).map((c) => [c.zone, c.cutoff]));
    expect(cutoffs).toMatchObject({ "Europe/London": "2026-01-14T00:00:00.000Z", "America/Los_Angeles": "2026-01-14T08:00:00.000Z" });
    expect((await nextResetAt(f.t.db, now)).toISOString()).toBe("2026-01-15T00:00:00.000Z");
    const later = new Date("2026-01-15T00:05:00Z");
    expect((await nextResetAt(f.t.db, later)).toISOString()).toBe("2026-01-15T08:00:00.000Z");
    const enqueued: unknown[] = [];
    const jobs = {
      enqueue: async (name: string, payload: unknown, o: unknown) => void enqueued.push({ name, payload, o }),
      repeat: async () => {},
    };
    await scheduleDailyReset({ db: f.t.db, jobs } as never, later);
    expect(enqueued).toEqual([
      {
        name: "daily-reset",
        payload: { day: "2026-01-15" },
        o: { jobId: "daily-reset-202601150800", delayMs: 7 * 3_600_000 + 55 * 60_000 },
      },
    ]);
  });
});
