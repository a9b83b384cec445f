import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { limitDay } from "../db/queries/usage-today";
import { dailyReset, nextResetAt, resetDailyBlocks } from "./processors/daily-reset";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// The phone (the simulator) enforces the policy from the usage it generates and says why an app stopped.
const MIA = "DEMO-MIA-0001";

describe.each(DIALECTS)("enforcement on the phone on %s", (dialect) => {
  let h: Harness;
  let mia: { profileId: string; deviceId: string };
  beforeAll(async () => {
    h = await startHarness({ dialect });
    mia = await h.kid(MIA);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const appRow = (packageName: string) =>
    h.tdb.db
      .selectFrom("profile_apps")
      .select(["is_app_disabled", "disabled_type", "updated_at"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", packageName)
      .executeTakeFirstOrThrow();

  it("an app used past its limit is disabled with reason Overuse and re-enabled after midnight", async () => {
    const now = new Date();
    await h.tdb.db
      .deleteFrom("app_usage_hourly")
      .where("device_id", "=", mia.deviceId)
      .where("hour", ">=", `${limitDay(now)}T00:00:00.000Z`)
      .execute();
    await h.tdb.db.deleteFrom("app_usage_daily").where("device_id", "=", mia.deviceId).where("day", "=", limitDay(now)).execute();
    const { package_name: pkg } = await h.tdb.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", mia.deviceId)
      .where("is_app_disabled", "=", 0)
      .where("package_name", "!=", "com.kidsportal.kidsapp")
      .orderBy("package_name")
      .limit(1)
      .executeTakeFirstOrThrow();
    const phone = await h.phone(MIA);
    const r = await h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: pkg, enableDailyLimit: true, dailyLimitTime: 30 });
    // Applied, acknowledged and enforced: usage from here on is judged against this policy alone.
    await waitFor(async () => phone.state.enforcedVersion === r.policyVersion);

    expect(await phone.enforcer.useApp(pkg, 29, now)).toEqual([]);
    expect(await appRow(pkg)).toMatchObject({ is_app_disabled: 0, disabled_type: null });
    expect(await phone.enforcer.useApp(pkg, 2, now)).toEqual([{ packageName: pkg, disabled: true, reason: "Overuse" }]);
    expect(phone.state.disabled.has(pkg)).toBe(true);
    expect(await appRow(pkg)).toMatchObject({ is_app_disabled: 1, disabled_type: "Overuse" });
    // Enabling it by hand is refused while today's use is at the limit.
    await expect(h.caller(h.demo).apps.setEnabled({ serialNumber: MIA, packageName: pkg, enabled: true })).rejects.toThrow(
      "Please increase daily limit time",
    );

    // The kid's midnight (UTC until families have a time zone): a new day, nothing used yet.
    const midnight = new Date(`${limitDay(new Date(now.getTime() + 86_400_000))}T00:00:00.000Z`);
    expect(await phone.enforcer.tick(new Date(midnight.getTime() + 1000))).toEqual([{ packageName: pkg, disabled: false, reason: null }]);
    expect(phone.state.disabled.has(pkg)).toBe(false);
    expect(await appRow(pkg)).toMatchObject({ is_app_disabled: 0, disabled_type: null });
    await phone.close();
  });

  it("a category over its limit stops its apps (Category Overuse); a manual disable is the parent's and stays", async () => {
    const now = new Date();
    await h.tdb.db
      .deleteFrom("app_usage_hourly")
      .where("device_id", "=", mia.deviceId)
      .where("hour", ">=", `${limitDay(now)}T00:00:00.000Z`)
      .execute();
    await h.tdb.db.deleteFrom("app_usage_daily").where("device_id", "=", mia.deviceId).where("day", "=", limitDay(now)).execute();
    const apps = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["package_name", "play_store_category"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "!=", "com.kidsportal.kidsapp")
      .execute();
    const byCat = new Map<string, string[]>();
    for (const a of apps) byCat.set(a.play_store_category, [...(byCat.get(a.play_store_category) ?? []), a.package_name]);
    const [category, members] = [...byCat.entries()].sort((a, b) => b[1].length - a[1].length)[0];
    const phone = await h.phone(MIA);
    for (const p of members)
      await h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: p, enableDailyLimit: false, dailyLimitTime: 0 });
    const r = await h
      .caller(h.demo)
      .categories.update({ serialNumber: MIA, category, enableDailyLimit: true, dailyLimitTime: 15, isCategoryEnabled: true });
    // Applied, acknowledged and enforced: usage from here on is judged against this policy alone.
    await waitFor(async () => phone.state.enforcedVersion === r.policyVersion);
    const changes = await phone.enforcer.useApp(members[0], 15, now);
    expect(
      changes
        .filter((c) => c.disabled)
        .map((c) => [c.packageName, c.reason])
        .sort(),
    ).toEqual(
      members
        .filter((p) => !phone.enforcer.manualBlocks().includes(p))
        .map((p) => [p, "Category Overuse"])
        .sort(),
    );
    const stored = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["package_name", "disabled_type"])
      .where("device_id", "=", mia.deviceId)
      .where("play_store_category", "=", category)
      .execute();
    expect(stored.every((s) => s.disabled_type === "Category Overuse" || s.disabled_type === "Manually")).toBe(true);
    await phone.close();
  });

  it("the server's midnight job clears the day's usage blocks once (idempotent), leaves the parent's own, and schedules the next", async () => {
    const rows = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["id", "package_name"])
      .where("device_id", "=", mia.deviceId)
      .orderBy("package_name")
      .limit(3)
      .execute();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const types = ["Overuse", "Global Daily Limit Reach", "Manually"] as const;
    for (const [i, r] of rows.entries()) {
      await h.tdb.db
        .updateTable("profile_apps")
        .set({ is_app_disabled: 1, disabled_type: types[i], updated_at: yesterday })
        .where("id", "=", r.id)
        .execute();
    }
    const enqueued: { name: string; jobId?: string; delayMs?: number }[] = [];
    const deps = {
      ...h.runtime.deps,
      jobs: { enqueue: async (name: string, _p: unknown, o?: { jobId?: string; delayMs?: number }) => void enqueued.push({ name, ...o }) },
    };
    const now = new Date();
    await dailyReset(deps as typeof h.runtime.deps, { day: limitDay(now) }, now);
    const after = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["package_name", "is_app_disabled", "disabled_type"])
      .where(
        "id",
        "in",
        rows.map((r) => r.id),
      )
      .orderBy("package_name")
      .execute();
    expect(after.map((a) => [a.is_app_disabled, a.disabled_type])).toEqual([
      [0, null],
      [0, null],
      [1, "Manually"],
    ]);
    expect(await resetDailyBlocks(h.tdb.db, now)).toBe(0);
    const next = await nextResetAt(h.tdb.db, now);
    expect(enqueued).toEqual([
      {
        name: "daily-reset",
        jobId: `daily-reset-${next.toISOString().slice(0, 16).replace(/\D/g, "")}`,
        delayMs: next.getTime() - now.getTime(),
      },
    ]);
    // A block the phone reported today is today's: not cleared.
    await h.tdb.db
      .updateTable("profile_apps")
      .set({ is_app_disabled: 1, disabled_type: "Overuse", updated_at: now.toISOString() })
      .where("id", "=", rows[0].id)
      .execute();
    expect(await resetDailyBlocks(h.tdb.db, now)).toBe(0);
  });
});
