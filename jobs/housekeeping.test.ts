import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "../core/ids.server";
import { createParent } from "../db/queries/parents";
import { seedDemo } from "../db/seed/index";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { upsertVisits } from "../db/queries/web-filter/visits";
import { pruneExpiredState } from "./housekeeping";

describe.each(DIALECTS)("housekeeping on %s", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("removes old receipts, spent enrollment tokens and long-ended sessions, and keeps what is still live", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const ago = (days: number) => nowIso(new Date(now.getTime() - days * 86_400_000));
    const device = await t.db.selectFrom("devices").select(["id", "profile_id"]).executeTakeFirstOrThrow();
    const parent = await createParent(t.db, { email: `hk-${dialect}@example.com`, name: "HK", passwordHash: null });
    await t.db
      .insertInto("device_message_receipts")
      .values([
        { device_id: device.id, message_id: "old", received_at: ago(8) },
        { device_id: device.id, message_id: "recent", received_at: ago(1) },
      ])
      .execute();
    await t.db
      .insertInto("enrollment_tokens")
      .values([
        {
          token_hash: "expired",
          profile_id: device.profile_id,
          parent_id: parent.id,
          created_at: ago(3),
          expires_at: ago(2),
          used_at: null,
          device_id: null,
        },
        {
          token_hash: "live",
          profile_id: device.profile_id,
          parent_id: parent.id,
          created_at: ago(0),
          expires_at: nowIso(new Date(now.getTime() + 600_000)),
          used_at: null,
          device_id: null,
        },
      ])
      .execute();
    const session = (id: string, expires: string, revoked: string | null) => ({
      id,
      parent_id: parent.id,
      user_agent: null,
      ip: null,
      created_at: ago(40),
      last_seen_at: ago(40),
      expires_at: expires,
      revoked_at: revoked,
    });
    await t.db
      .insertInto("sessions")
      .values([
        session(newId(), ago(31), null),
        session(newId(), ago(-5), ago(31)),
        session("keep", ago(-5), null),
        session("recently-ended", ago(2), null),
      ])
      .execute();

    await t.db
      .insertInto("push_subscriptions")
      .values({
        id: "browser",
        parent_id: parent.id,
        endpoint: "https://fcm.googleapis.com/fcm/send/x",
        p256dh: "k",
        auth: "a",
        label: "Chrome",
        created_at: ago(30),
        last_success_at: null,
      })
      .execute();
    await t.db
      .insertInto("push_deliveries")
      .values([
        { alert_id: "old", subscription_id: "browser", created_at: ago(8) },
        { alert_id: "recent", subscription_id: "browser", created_at: ago(1) },
      ])
      .execute();

    const counts = await pruneExpiredState(t.db, now);
    expect(counts).toEqual({
      receipts: 1,
      enrollmentTokens: 1,
      sessions: 2,
      pushDeliveries: 1,
      webVisits: 0,
      webVisitsOverCap: 0,
      locations: 0,
      placeEvents: 0,
    });
    expect((await t.db.selectFrom("push_deliveries").select("alert_id").execute()).map((r) => r.alert_id)).toEqual(["recent"]);
    expect((await t.db.selectFrom("device_message_receipts").select("message_id").execute()).map((r) => r.message_id)).toEqual(["recent"]);
    expect((await t.db.selectFrom("enrollment_tokens").select("token_hash").execute()).map((r) => r.token_hash)).toEqual(["live"]);
    const left = (await t.db.selectFrom("sessions").select("id").where("parent_id", "=", parent.id).execute()).map((r) => r.id).sort();
    expect(left).toEqual(["keep", "recently-ended"]);
    // Idempotent.
    expect(await pruneExpiredState(t.db, now)).toEqual({
      receipts: 0,
      enrollmentTokens: 0,
      sessions: 0,
      pushDeliveries: 0,
      webVisits: 0,
      webVisitsOverCap: 0,
      locations: 0,
      placeEvents: 0,
    });
  });

  it("removes the visited sites older than WEB_LOG_DAYS and past a kid's WEB_LOG_MAX_ROWS_PER_KID", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const kid = await t.db.selectFrom("kid_profiles").select("id").executeTakeFirstOrThrow();
    const visit = (domain: string, hour: string) => ({
      profileId: kid.id,
      domain,
      hour,
      firstAt: `${hour}:00:00.000Z`,
      lastAt: `${hour}:00:00.000Z`,
      count: 1,
      blocked: false,
      reason: null,
    });
    await upsertVisits(t.db, [
      visit("old.example", "2026-11-10T11"),
      visit("a.example", "2026-11-21T10"),
      visit("b.example", "2026-11-21T11"),
      visit("c.example", "2026-11-22T11"),
    ]);
    expect(await pruneExpiredState(t.db, now, { webLogDays: 7, webLogMaxRowsPerKid: 2 })).toMatchObject({
      webVisits: 1,
      webVisitsOverCap: 1,
    });
    const left = await t.db.selectFrom("web_visits").select("domain").orderBy("domain").execute();
    expect(left.map((r) => r.domain)).toEqual(["b.example", "c.example"]);
  });

  it("keeps 30 days of locations and place events, and every phone's newest location however old", async () => {
    const now = new Date("2027-03-01T12:00:00Z");
    const ago = (days: number) => nowIso(new Date(now.getTime() - days * 86_400_000));
    const [a, b] = await t.db.selectFrom("devices").select(["id", "profile_id"]).orderBy("id").limit(2).execute();
    const loc = (device_id: string, days: number) => ({
      id: newId(),
      device_id,
      latitude: 51.5,
      longitude: -0.14,
      device_time: ago(days),
      received_at: ago(days),
    });
    await t.db.deleteFrom("device_locations").execute();
    await t.db
      .insertInto("device_locations")
      .values([loc(a.id, 40), loc(a.id, 31), loc(a.id, 29), loc(a.id, 1), loc(b.id, 60), loc(b.id, 45)])
      .execute();
    const ts = ago(0);
    const place = newId();
    const parentId = (await t.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", a.profile_id).executeTakeFirstOrThrow())
      .parent_id;
    await t.db
      .insertInto("places")
      .values({
        id: place,
        parent_id: parentId,
        profile_id: null,
        name: "Home",
        latitude: 51.5,
        longitude: -0.14,
        radius_m: 100,
        created_by: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const event = (id: string, days: number) => ({
      id,
      place_id: place,
      device_id: a.id,
      profile_id: a.profile_id,
      kind: "arrive" as const,
      place_name: "Home",
      at: ago(days),
      created_at: ago(days),
    });
    await t.db
      .insertInto("place_events")
      .values([event("old", 31), event("new", 2)])
      .execute();

    const counts = await pruneExpiredState(t.db, now);
    expect(counts).toMatchObject({ locations: 3, placeEvents: 1 });
    const left = await t.db
      .selectFrom("device_locations")
      .select(["device_id", "device_time"])
      .orderBy("device_id")
      .orderBy("device_time")
      .execute();
    expect(left).toEqual(
      [
        { device_id: a.id, device_time: ago(29) },
        { device_id: a.id, device_time: ago(1) },
        { device_id: b.id, device_time: ago(45) },
      ].sort((x, y) => (x.device_id < y.device_id ? -1 : x.device_id > y.device_id ? 1 : 0)),
    );
    expect((await t.db.selectFrom("place_events").select("id").execute()).map((r) => r.id)).toEqual(["new"]);
    expect(await pruneExpiredState(t.db, now)).toMatchObject({ locations: 0, placeEvents: 0 });
  });
});
