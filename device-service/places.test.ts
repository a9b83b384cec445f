import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertEvent } from "../core/alert-events";
import { newId, nowIso } from "../core/ids.server";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { createLocalBus } from "./bus";
import { placeEventId } from "./places";
import { createIngestBatcher, type IngestOptions } from "./socket/ingest-batch";
import { handleDeviceMessage, type DeviceRef } from "./socket/telemetry";

/**
 * Issue 55 item 1: arrivals and departures decided from the location reports, in the transaction that stores them:
 * one event per real transition (stored in place_events and handed to onAlertEvent after the commit), none for a
 * re-sent report, none from jitter at the edge, only for the places of the phone's kid and family.
 */
const HOME = { latitude: 51.5014, longitude: -0.1419 };
const north = (m: number) => ({ latitude: HOME.latitude + m / 111_195, longitude: HOME.longitude });
const ENROLLED = "2000-01-02T00:00:00.000Z";

describe.each(DIALECTS)("places decided at ingest on %s", (dialect) => {
  let t: TestDb;
  const sunk: AlertEvent[] = [];
  const ids = { home: "", school: "", strangersHome: "" };
  const phones: Record<"mia" | "miaTablet" | "leo" | "eve", DeviceRef> = {} as never;
  let clock = Date.parse("2026-11-29T08:00:00.000Z");
  const fix = (m: number, extra: { accuracy?: number } = {}) => ({
    ...north(m),
    deviceTime: new Date((clock += 60_000)).toISOString(),
    ...extra,
  });
  const batcher = (opts: IngestOptions = {}) =>
    createIngestBatcher({ db: t.db, bus: createLocalBus(), log: () => {}, onAlertEvent: (e) => void sunk.push(e) }, opts);
  const events = (deviceId: string) =>
    t.db.selectFrom("place_events").select(["place_id", "kind", "place_name"]).where("device_id", "=", deviceId).orderBy("at").execute();
  /** Sends fixes one after the other through one batcher; returns the events handed on meanwhile. */
  async function send(phone: DeviceRef, fixes: ReturnType<typeof fix>[], opts: IngestOptions = {}): Promise<AlertEvent[]> {
    const from = sunk.length;
    const b = batcher(opts);
    for (const f of fixes) await b.location(phone, newId(), f);
    await b.close();
    return sunk.slice(from);
  }

  beforeAll(async () => {
    t = await createTestDb(dialect);
    const ts = nowIso();
    const parent = async (name: string) => {
      const id = newId();
      await t.db
        .insertInto("parents")
        .values({ id, email: `${id}@places.test`, name, password_hash: null, role: "parent", created_at: ts, updated_at: ts })
        .execute();
      return id;
    };
    const kid = async (parentId: string, name: string) => {
      const id = newId();
      await t.db
        .insertInto("kid_profiles")
        .values({
          id,
          parent_id: parentId,
          name,
          birth_month: 1,
          birth_year: 2015,
          picture_mime: null,
          picture: null,
          created_at: ts,
          updated_at: ts,
        })
        .execute();
      return id;
    };
    const device = async (profileId: string, serial: string): Promise<DeviceRef> => {
      const id = newId();
      await t.db
        .insertInto("devices")
        .values({ id, profile_id: profileId, serial_number: serial, credential_hash: null, created_at: ENROLLED, updated_at: ts })
        .execute();
      return { id, profile_id: profileId, serial_number: serial, enrolled_at: ENROLLED };
    };
    const place = async (
      parentId: string,
      profileId: string | null,
      name: string,
      at: { latitude: number; longitude: number },
      radius: number,
    ) => {
      const id = newId();
      await t.db
        .insertInto("places")
        .values({
          id,
          parent_id: parentId,
          profile_id: profileId,
          name,
          ...at,
          radius_m: radius,
          created_by: parentId,
          created_at: ts,
          updated_at: ts,
        })
        .execute();
      return id;
    };
    const alice = await parent("Alice");
    const eve = await parent("Eve");
    const mia = await kid(alice, "Mia");
    const leo = await kid(alice, "Leo");
    const evesKid = await kid(eve, "Sam");
    phones.mia = await device(mia, "P-MIA");
    phones.miaTablet = await device(mia, "P-MIA-TAB");
    phones.leo = await device(leo, "P-LEO");
    phones.eve = await device(evesKid, "P-EVE");
    ids.home = await place(alice, null, "Home", HOME, 200);
    ids.school = await place(alice, mia, "School", north(3_000), 300);
    ids.strangersHome = await place(eve, null, "Eve's home", HOME, 200);
  }, 60_000);
  afterAll(async () => {
    await t?.destroy();
  });

  it("walking home from far away: one arrival, stored and handed on with the place's name", async () => {
    const got = await send(phones.mia, [fix(1_000), fix(600), fix(300), fix(100), fix(20)]);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      kind: "place.arrive",
      profileId: phones.mia.profile_id,
      deviceId: phones.mia.id,
      details: { placeName: "Home", placeId: ids.home },
    });
    expect(got[0].eventId).toBe(placeEventId("arrive", ids.home, phones.mia.id, got[0].at));
    expect(await events(phones.mia.id)).toEqual([{ place_id: ids.home, kind: "arrive", place_name: "Home" }]);
    const presence = await t.db
      .selectFrom("place_presence")
      .select(["place_id", "state"])
      .where("device_id", "=", phones.mia.id)
      .orderBy("place_id")
      .execute();
    // Home decided inside; School (3 km north) decided outside on the first fix, without an event.
    expect(Object.fromEntries(presence.map((p) => [p.place_id, p.state]))).toEqual({ [ids.home]: "inside", [ids.school]: "outside" });
  });

  it("GPS jitter at the edge gives no events; leaving gives one departure", async () => {
    expect(
      await send(
        phones.mia,
        [180, 215, 170, 235, 190, 225].map((m) => fix(m)),
      ),
    ).toEqual([]);
    const got = await send(phones.mia, [fix(500)]);
    expect(got.map((e) => [e.kind, e.details.placeName])).toEqual([["place.leave", "Home"]]);
  });

  it("a fix less accurate than the radius decides nothing", async () => {
    expect(await send(phones.mia, [fix(0, { accuracy: 900 })])).toEqual([]);
    expect(
      (await t.db.selectFrom("device_locations").select("accuracy_m").where("device_id", "=", phones.mia.id).execute()).map(
        (r) => r.accuracy_m,
      ),
    ).toContain(900);
  });

  it("a re-sent report (same message id) is not decided twice", async () => {
    const b = batcher();
    const f = fix(0);
    await b.location(phones.mia, "resent-1", f);
    await b.flush();
    await b.location(phones.mia, "resent-1", f);
    await b.close();
    const arrivals = sunk.filter((e) => e.deviceId === phones.mia.id && e.at === new Date(f.deviceTime).toISOString());
    expect(arrivals.map((e) => e.kind)).toEqual(["place.arrive"]);
    expect((await events(phones.mia.id)).map((e) => e.kind)).toEqual(["arrive", "leave", "arrive"]);
  });

  it("a kid's own place is the kid's only; another family's place is never theirs", async () => {
    // Leo (Mia's brother) at Mia's school: no event. Leo at home (the family's place): an arrival.
    expect(await send(phones.leo, [fix(5_000), fix(3_000)])).toEqual([]);
    expect((await send(phones.leo, [fix(0)])).map((e) => e.details.placeName)).toEqual(["Home"]);
    // Eve's kid at the same spot: only Eve's place.
    const eves = await send(phones.eve, [fix(2_000), fix(0)]);
    expect(eves.map((e) => [e.kind, e.details.placeId])).toEqual([["place.arrive", ids.strangersHome]]);
  });

  it("each phone of a kid has its own presence", async () => {
    const got = await send(phones.miaTablet, [fix(1_000), fix(0)]);
    expect(got.map((e) => [e.deviceId, e.kind])).toEqual([[phones.miaTablet.id, "place.arrive"]]);
  });

  it("a batch that does not commit stores no transition and hands on nothing", async () => {
    await send(phones.leo, [fix(1_000)]);
    const before = (await events(phones.leo.id)).length;
    const from = sunk.length;
    const b = batcher({
      beforeCommit: () => {
        throw new Error("disk full");
      },
    });
    await expect(b.location(phones.leo, newId(), fix(0))).rejects.toThrow("disk full");
    await b.close();
    expect(sunk.length).toBe(from);
    expect((await events(phones.leo.id)).length).toBe(before);
  });

  it("the path without group commit decides the same way", async () => {
    const deps = { db: t.db, bus: createLocalBus(), log: () => {}, onAlertEvent: (e: AlertEvent) => void sunk.push(e) };
    const from = sunk.length;
    await handleDeviceMessage(deps, phones.leo, { event: "location", id: "direct-1", data: fix(1_000) });
    await handleDeviceMessage(deps, phones.leo, { event: "location", id: "direct-2", data: fix(0) });
    await handleDeviceMessage(deps, phones.leo, { event: "location", id: "direct-2", data: fix(0) });
    expect(sunk.slice(from).map((e) => [e.kind, e.details.placeName])).toEqual([["place.arrive", "Home"]]);
  });

  it("a sink that throws does not fail the report", async () => {
    await send(phones.leo, [fix(1_000)]);
    const b = createIngestBatcher({
      db: t.db,
      bus: createLocalBus(),
      log: () => {},
      onAlertEvent: () => {
        throw new Error("pipeline down");
      },
    });
    await expect(b.location(phones.leo, newId(), fix(0))).resolves.toBeUndefined();
    await b.close();
    expect((await events(phones.leo.id)).at(-1)?.kind).toBe("arrive");
  });
});
