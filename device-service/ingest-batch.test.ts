import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { createLocalBus } from "./bus";
import { fleetDeviceId, FLEET_PROFILE_ID, provisionFleet } from "./simulator/fleet";
import { createIngestBatcher, laneOf, type IngestOptions } from "./socket/ingest-batch";
import { ingestUsage, ProtocolError, type DeviceRef } from "./socket/telemetry";
import { waitFor } from "../server/harness.testing";

/**
 * Issue 22 item 3: usage and locations from many phones are written in group commits, each acknowledged (its
 * promise resolved) only after the commit; idempotent per message; one bad upload does not cost the others.
 */
describe.each(DIALECTS)("telemetry group commit on %s", (dialect) => {
  let t: TestDb;
  const phone = (i: number): DeviceRef => ({
    id: fleetDeviceId(i),
    profile_id: FLEET_PROFILE_ID,
    serial_number: `FLEET-${i}`,
    enrolled_at: "2000-01-02T00:00:00.000Z",
  });
  const batcher = (opts: IngestOptions = {}) => createIngestBatcher({ db: t.db, bus: createLocalBus(), log: () => {} }, opts);
  const hourly = (i: number, hour: string) =>
    t.db
      .selectFrom("app_usage_hourly")
      .select(["package_name", "minutes"])
      .where("device_id", "=", fleetDeviceId(i))
      .where("hour", "=", hour)
      .orderBy("package_name")
      .execute();
  const daily = (i: number, day: string) =>
    t.db
      .selectFrom("app_usage_daily")
      .select(["package_name", "minutes"])
      .where("device_id", "=", fleetDeviceId(i))
      .where("day", "=", day)
      .orderBy("package_name")
      .execute();
  const locations = (i: number) =>
    t.db
      .selectFrom("device_locations")
      .select(["latitude", "longitude"])
      .where("device_id", "=", fleetDeviceId(i))
      .orderBy("latitude")
      .execute();
  /** Records when a promise settles, so a test can check it has not yet (without waiting on time). */
  const track = (p: Promise<void>) => {
    const s = { settled: false, promise: p };
    p.then(
      () => (s.settled = true),
      () => (s.settled = true),
    );
    return s;
  };

  beforeAll(async () => {
    t = await createTestDb(dialect);
    await provisionFleet(t.db, 14, "2000-01-02T00:00:00.000Z");
  }, 60_000);
  afterAll(async () => {
    await t?.destroy();
  });

  it("two writers of one phone at once (a resend through another process) keep its daily rows equal to its hours", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = false;
    const first = batcher({
      beforeCommit: async () => {
        if (held) return;
        held = true;
        await gate;
      },
    }).usage(phone(11), "race-1", [{ packageName: "com.race", hour: "2026-01-09T10:00:00Z", minutes: 10 }]);
    await waitFor(async () => held, 30_000);
    // The same upload again through another batcher (another device process) while the first is not committed.
    const second = batcher().usage(phone(11), "race-2", [{ packageName: "com.race", hour: "2026-01-09T10:00:00Z", minutes: 10 }]);
    if (dialect === "postgres") {
      // It must be waiting on the first writer's lock before that commits, or this would test nothing.
      const waiting = async () =>
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.db)
        ).rows[0]!.n;
      await waitFor(async () => (await waiting()) > 0, 30_000);
    }
    release();
    await Promise.all([first, second]);
    expect(await hourly(11, "2026-01-09T10:00:00.000Z")).toEqual([{ package_name: "com.race", minutes: 10 }]);
    expect(await daily(11, "2026-01-09")).toEqual([{ package_name: "com.race", minutes: 10 }]);
  });

  it("uploads arriving while a batch is written go in the next one, each acknowledged only after its commit", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inCommit = 0;
    const b = batcher({
      beforeCommit: async () => {
        inCommit++;
        if (inCommit === 1) await gate;
      },
    });
    const first = track(b.usage(phone(0), "u0", [{ packageName: "com.a", hour: "2026-01-05T10:20:00Z", minutes: 20 }]));
    // The first batch is inside its transaction, held before its commit.
    await waitFor(async () => inCommit === 1, 30_000);
    const later = [1, 2, 3].map((i) =>
      track(b.usage(phone(i), `u${i}`, [{ packageName: "com.a", hour: "2026-01-05T10:00:00Z", minutes: 10 + i }])),
    );
    const loc = track(b.location(phone(1), "l1", { latitude: 10, longitude: 20, deviceTime: "2026-01-05T10:00:00Z" }));
    await Promise.resolve();
    expect(first.settled).toBe(false);
    expect(later.some((x) => x.settled) || loc.settled).toBe(false);
    release();
    await first.promise;
    await Promise.all([...later.map((x) => x.promise), loc.promise]);
    // Two transactions: the first upload alone, then the four that queued behind it together.
    expect(b.stats()).toEqual({ batches: 2, items: 5, retried: 0 });
    expect(await hourly(0, "2026-01-05T10:00:00.000Z")).toEqual([{ package_name: "com.a", minutes: 20 }]);
    for (const i of [1, 2, 3]) expect(await daily(i, "2026-01-05")).toEqual([{ package_name: "com.a", minutes: 10 + i }]);
    expect(await locations(1)).toEqual([{ latitude: 10, longitude: 20 }]);
    await b.close();
  });

  it("is idempotent: a location resent (in the same batch or a later one) is one row; a resent upload never double counts", async () => {
    const b = batcher();
    const loc = { latitude: 11, longitude: 21, deviceTime: "2026-01-05T11:00:00Z" };
    const up = [
      { packageName: "com.b", hour: "2026-01-05T11:00:00Z", minutes: 30 },
      { packageName: "com.b", hour: "2026-01-05T12:00:00Z", minutes: 15 },
    ];
    await Promise.all([
      b.location(phone(4), "same", loc),
      b.location(phone(4), "same", loc),
      b.usage(phone(4), "up", up),
      b.usage(phone(4), "up", up),
    ]);
    await Promise.all([b.location(phone(4), "same", loc), b.usage(phone(4), "up", up)]);
    await b.location(phone(4), "other", { ...loc, latitude: 12 });
    expect(await locations(4)).toEqual([
      { latitude: 11, longitude: 21 },
      { latitude: 12, longitude: 21 },
    ]);
    expect(await daily(4, "2026-01-05")).toEqual([{ package_name: "com.b", minutes: 45 }]);
    // A later upload of the same hour rewrites it (absolute minutes), and the day follows.
    await b.usage(phone(4), "up2", [{ packageName: "com.b", hour: "2026-01-05T11:30:00Z", minutes: 40 }]);
    expect(await daily(4, "2026-01-05")).toEqual([{ package_name: "com.b", minutes: 55 }]);
    await b.close();
  });

  it("an upload refused inside a batch costs only itself: the other phones' rows commit and are acknowledged", async () => {
    const b = batcher();
    // Submitted in one tick: one batch. Phone 6 would have 80 minutes in one hour.
    const good = b.usage(phone(5), "g", [{ packageName: "com.c", hour: "2026-01-05T13:00:00Z", minutes: 30 }]);
    const bad = b.usage(phone(6), "x", [
      { packageName: "com.c", hour: "2026-01-05T13:00:00Z", minutes: 40 },
      { packageName: "com.d", hour: "2026-01-05T13:00:00Z", minutes: 40 },
    ]);
    const loc = b.location(phone(7), "l", { latitude: 13, longitude: 23, deviceTime: "2026-01-05T13:00:00Z" });
    await expect(bad).rejects.toThrow(ProtocolError);
    await expect(bad).rejects.toMatchObject({ code: "TOO_MANY_MINUTES" });
    await good;
    await loc;
    expect(b.stats()).toMatchObject({ batches: 1, items: 3, retried: 3 });
    expect(await hourly(5, "2026-01-05T13:00:00.000Z")).toEqual([{ package_name: "com.c", minutes: 30 }]);
    expect(await hourly(6, "2026-01-05T13:00:00.000Z")).toEqual([]);
    expect(await daily(6, "2026-01-05")).toEqual([]);
    expect(await locations(7)).toEqual([{ latitude: 13, longitude: 23 }]);
    // Out of the phone's window: refused before it joins a batch.
    await expect(b.usage(phone(5), "old", [{ packageName: "com.c", hour: "1999-01-01T00:00:00Z", minutes: 1 }])).rejects.toMatchObject({
      code: "OUT_OF_RANGE",
    });
    await b.close();
  });

  it("a commit that fails acknowledges nobody and stores nothing (the phones resend)", async () => {
    const b = batcher({
      beforeCommit: () => {
        throw new Error("disk full");
      },
    });
    const all = [
      b.usage(phone(8), "a", [{ packageName: "com.e", hour: "2026-01-05T14:00:00Z", minutes: 5 }]),
      b.usage(phone(9), "b", [{ packageName: "com.e", hour: "2026-01-05T14:00:00Z", minutes: 6 }]),
      b.location(phone(10), "c", { latitude: 14, longitude: 24, deviceTime: "2026-01-05T14:00:00Z" }),
    ];
    const results = await Promise.allSettled(all);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(await hourly(8, "2026-01-05T14:00:00.000Z")).toEqual([]);
    expect(await hourly(9, "2026-01-05T14:00:00.000Z")).toEqual([]);
    expect(await locations(10)).toEqual([]);
    const receipts = await t.db
      .selectFrom("device_message_receipts")
      .select("message_id")
      .where("device_id", "=", fleetDeviceId(10))
      .execute();
    expect(receipts).toEqual([]);
    // The resend after the failure is stored once.
    const ok = batcher();
    await ok.location(phone(10), "c", { latitude: 14, longitude: 24, deviceTime: "2026-01-05T14:00:00Z" });
    expect(await locations(10)).toEqual([{ latitude: 14, longitude: 24 }]);
    await b.close();
    await ok.close();
  });

  it("keeps the daily rollup equal to its hours incrementally; the per-message path re-derives a drifted day", async () => {
    const b = batcher();
    const up = (i: number, id: string, minutes: [string, string, number][]) =>
      b.usage(
        phone(i),
        id,
        minutes.map(([packageName, hour, m]) => ({
          packageName,
          hour,
          minutes: m,
        })),
      );
    // Earlier hours of the day from the per-message path, then batches on top of them.
    await ingestUsage(t.db, fleetDeviceId(12), [{ packageName: "com.f", hour: "2026-01-06T01:00:00Z", minutes: 7 }]);
    // One batch: the same (phone, hour, app) twice (the later wins), two hours of one app, two phones.
    await Promise.all([
      up(12, "a", [
        ["com.f", "2026-01-06T02:00:00Z", 10],
        ["com.g", "2026-01-06T02:00:00Z", 5],
      ]),
      up(12, "b", [
        ["com.f", "2026-01-06T02:10:00Z", 12],
        ["com.f", "2026-01-06T03:00:00Z", 3],
      ]),
      up(13, "c", [["com.f", "2026-01-06T02:00:00Z", 9]]),
    ]);
    expect(await daily(12, "2026-01-06")).toEqual([
      { package_name: "com.f", minutes: 22 },
      { package_name: "com.g", minutes: 5 },
    ]);
    expect(await daily(13, "2026-01-06")).toEqual([{ package_name: "com.f", minutes: 9 }]);
    // A resend changes nothing; a lower absolute value lowers the day; an hour of the next day is its own day.
    await up(12, "b", [
      ["com.f", "2026-01-06T02:10:00Z", 12],
      ["com.f", "2026-01-06T03:00:00Z", 3],
    ]);
    await up(12, "d", [
      ["com.g", "2026-01-06T02:00:00Z", 1],
      ["com.g", "2026-01-07T00:00:00Z", 4],
    ]);
    expect(await daily(12, "2026-01-06")).toEqual([
      { package_name: "com.f", minutes: 22 },
      { package_name: "com.g", minutes: 1 },
    ]);
    expect(await daily(12, "2026-01-07")).toEqual([{ package_name: "com.g", minutes: 4 }]);
    // An upload that would take an hour with earlier minutes over 60 is refused alone; the day is untouched.
    await expect(up(12, "x", [["com.h", "2026-01-06T02:00:00Z", 48]])).rejects.toMatchObject({ code: "TOO_MANY_MINUTES" });
    expect(await daily(12, "2026-01-06")).toEqual([
      { package_name: "com.f", minutes: 22 },
      { package_name: "com.g", minutes: 1 },
    ]);
    // Every daily row of both phones equals the sum of its hours (what a full re-derivation would write).
    const derived = await t.db
      .selectFrom("app_usage_hourly")
      .select((eb) => ["device_id", "package_name", eb.fn.sum<number>("minutes").as("minutes")])
      .select(sql<string>`substr(hour, 1, 10)`.as("day"))
      .where("device_id", "in", [fleetDeviceId(12), fleetDeviceId(13)])
      .groupBy(["device_id", "package_name", sql`substr(hour, 1, 10)`])
      .orderBy("device_id")
      .orderBy("day")
      .orderBy("package_name")
      .execute();
    const stored = await t.db
      .selectFrom("app_usage_daily")
      .select(["device_id", "package_name", "minutes", "day"])
      .where("device_id", "in", [fleetDeviceId(12), fleetDeviceId(13)])
      .orderBy("device_id")
      .orderBy("day")
      .orderBy("package_name")
      .execute();
    expect(stored).toEqual(derived.map((r) => ({ ...r, minutes: Number(r.minutes) })));
    // A daily row that drifted (written by hand) is healed by the per-message path, which re-derives the day.
    await t.db.updateTable("app_usage_daily").set({ minutes: 999 }).where("device_id", "=", fleetDeviceId(13)).execute();
    await ingestUsage(t.db, fleetDeviceId(13), [{ packageName: "com.f", hour: "2026-01-06T02:00:00Z", minutes: 9 }]);
    expect(await daily(13, "2026-01-06")).toEqual([{ package_name: "com.f", minutes: 9 }]);
    await b.close();
  });

  it("splits a batch by kid into lanes written at once, each acknowledged after its own commit", async () => {
    // Two kid ids that fall in different lanes (only the batcher reads DeviceRef.profile_id for usage).
    const kids = ["kid-a", "kid-b", "kid-c", "kid-d"];
    const [k0, k1] = [kids[0], kids.find((k) => laneOf(k, 2) !== laneOf(kids[0], 2))!];
    const commits: { items: number; retry: boolean }[] = [];
    const b = batcher({
      lanes: 2,
      beforeCommit: (info) => {
        commits.push(info);
        if (info.items === 2 || info.retry) throw new Error("lane lost");
      },
    });
    const at = (i: number, kid: string, minutes: number) =>
      b.usage({ ...phone(i), profile_id: kid }, `lane${i}`, [{ packageName: "com.l", hour: "2026-01-08T10:00:00Z", minutes }]);
    const results = await Promise.allSettled([at(12, k0, 5), at(13, k1, 6), at(11, k1, 7)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(b.stats()).toMatchObject({ batches: 1, items: 3 });
    expect(
      commits
        .filter((c) => !c.retry)
        .map((c) => c.items)
        .sort(),
    ).toEqual([1, 2]);
    expect(await hourly(12, "2026-01-08T10:00:00.000Z")).toEqual([{ package_name: "com.l", minutes: 5 }]);
    expect(await hourly(13, "2026-01-08T10:00:00.000Z")).toEqual([]);
    expect(await hourly(11, "2026-01-08T10:00:00.000Z")).toEqual([]);
    await b.close();
  });

  it("paces its batches: an upload at an idle batcher is written at once, those arriving within the window go together", async () => {
    // A window far longer than the test: only the pace (or a full batch, or a flush) can start the second batch.
    const b = batcher({ windowMs: 60_000, maxRows: 3 });
    const hour = "2026-01-11T10:00:00Z";
    const up = (i: number, id: string, minutes: number) => b.usage(phone(i), id, [{ packageName: "com.pace", hour, minutes }]);
    await up(12, "p0", 1); // idle: written without waiting for the window
    expect(b.stats()).toEqual({ batches: 1, items: 1, retried: 0 });
    const waiting = [track(up(12, "p1", 2)), track(up(13, "p2", 3))];
    await new Promise((r) => setTimeout(r, 50));
    expect(waiting.map((w) => w.settled)).toEqual([false, false]);
    // A third row fills the batch (maxRows): it begins at once, before the window ends.
    await Promise.all([up(13, "p3", 4), ...waiting.map((w) => w.promise)]);
    expect(b.stats()).toEqual({ batches: 2, items: 4, retried: 0 });
    expect(await hourly(12, "2026-01-11T10:00:00.000Z")).toEqual([{ package_name: "com.pace", minutes: 2 }]);
    expect(await hourly(13, "2026-01-11T10:00:00.000Z")).toEqual([{ package_name: "com.pace", minutes: 4 }]);
    // flush() writes what waits for the pace.
    const last = track(up(12, "p4", 5));
    await b.flush();
    expect(last.settled).toBe(true);
    expect(b.stats()).toEqual({ batches: 3, items: 5, retried: 0 });
    await b.close();
  });

  it("refuses items after close", async () => {
    const b = batcher();
    await b.close();
    await expect(b.location(phone(11), "z", { latitude: 1, longitude: 1, deviceTime: "2026-01-05T14:00:00Z" })).rejects.toThrow(/closed/);
  });
});
