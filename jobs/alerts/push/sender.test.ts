import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newId, nowIso } from "../../../core/ids.server";
import { generateVapidPair, type VapidKeys } from "../../../core/vapid.server";
import type { DB } from "../../../db/index";
import { createTestDb, DIALECTS, type TestDb } from "../../../db/index.testing";
import { savePushSubscription } from "../../../db/queries/push-subscriptions";
import { createPushSender, deliverPush, pushPayload, PushRetryableError } from "./sender";
import { startPushServiceDouble, type DoubleSubscription, type PushServiceDouble } from "./push-service.testing";

const VAPID: VapidKeys = { ...generateVapidPair(), subject: "mailto:alerts@kids-portal.test" };

async function addParent(db: DB, email: string): Promise<string> {
  const id = newId();
  const at = nowIso();
  await db
    .insertInto("parents")
    .values({ id, email, name: email, password_hash: null, role: "parent", email_verified_at: at, created_at: at, updated_at: at })
    .execute();
  return id;
}

async function allow(db: DB, parentId: string, s: DoubleSubscription) {
  expect(await savePushSubscription(db, parentId, { endpoint: s.endpoint, ...s.keys, label: "Chrome on Linux" }, 20)).toBe("added");
}

const endpoints = async (db: DB, parentId: string) =>
  (await db.selectFrom("push_subscriptions").select("endpoint").where("parent_id", "=", parentId).execute()).map((r) => r.endpoint).sort();

describe.each(DIALECTS)("the Web Push sender against a local push service on %s", (dialect) => {
  let t: TestDb;
  let push: PushServiceDouble;
  let parent: string;
  let other: string;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    push = await startPushServiceDouble();
  });
  afterAll(async () => {
    await push?.close();
    await t?.destroy();
  });
  beforeEach(async () => {
    push.received.length = 0;
    parent = await addParent(t.db, `p-${newId()}@example.test`);
    other = await addParent(t.db, `o-${newId()}@example.test`);
  });
  const alert = (alertId = newId()) => ({
    alertId,
    parentId: parent,
    title: "Mia arrived at School",
    body: "Mia's phone reached School at 08:12.",
    url: "/alerts?id=" + alertId,
  });

  it("sends every browser of the parent a VAPID-signed message that decrypts to exactly {title, body, url}", async () => {
    const [a, b, theirs] = [push.subscribe(), push.subscribe(), push.subscribe()];
    await allow(t.db, parent, a);
    await allow(t.db, parent, b);
    await allow(t.db, other, theirs);
    const d = alert();
    await createPushSender({ db: t.db, vapid: VAPID })(d);
    expect(push.received.map((m) => m.problem)).toEqual([null, null]);
    expect(push.received.map((m) => m.endpoint).sort()).toEqual([a.endpoint, b.endpoint].sort());
    for (const m of push.received) {
      expect(JSON.parse(m.payload!)).toStrictEqual({ title: d.title, body: d.body, url: d.url });
      expect(Object.keys(JSON.parse(m.payload!))).toEqual(["title", "body", "url"]);
      expect(m.vapidKey).toBe(VAPID.publicKey);
      expect(m.claims).toMatchObject({ aud: push.origin, sub: VAPID.subject });
      expect(m.headers.ttl).toBe("86400");
      expect(m.headers["content-encoding"]).toBe("aes128gcm");
    }
    const rows = await t.db
      .selectFrom("push_subscriptions")
      .select(["endpoint", "last_success_at"])
      .where("parent_id", "=", parent)
      .execute();
    expect(rows.every((r) => r.last_success_at !== null)).toBe(true);
  });

  it("does nothing for a parent without browsers", async () => {
    expect(await deliverPush({ db: t.db, vapid: VAPID }, alert())).toEqual({ sent: 0, dropped: 0, retryable: 0, refused: 0, skipped: 0 });
    expect(push.received).toEqual([]);
  });

  it("forgets a browser whose push service answers 410 or 404, and keeps the others", async () => {
    const [gone, missing, fine] = [push.subscribe(), push.subscribe(), push.subscribe()];
    for (const s of [gone, missing, fine]) await allow(t.db, parent, s);
    push.answer(gone.endpoint, 410);
    push.answer(missing.endpoint, 404);
    const summary = await deliverPush({ db: t.db, vapid: VAPID }, alert());
    expect(summary).toMatchObject({ sent: 1, dropped: 2, retryable: 0 });
    expect(await endpoints(t.db, parent)).toEqual([fine.endpoint]);
  });

  it("throws for a retry when a push service asks to come back, and the retry skips the browsers that took it", async () => {
    const [busy, down, fine] = [push.subscribe(), push.subscribe(), push.subscribe()];
    for (const s of [busy, down, fine]) await allow(t.db, parent, s);
    push.answer(busy.endpoint, 429);
    push.answer(down.endpoint, 503);
    const send = createPushSender({ db: t.db, vapid: VAPID });
    const d = alert();
    const first = await send(d).then(
      () => null,
      (e: unknown) => e,
    );
    expect(first).toBeInstanceOf(PushRetryableError);
    expect((first as PushRetryableError).summary).toMatchObject({ sent: 1, retryable: 2 });
    expect(push.received.filter((m) => m.endpoint === fine.endpoint)).toHaveLength(1);
    await send(d);
    // Each browser took the alert once: the retry went to the two that asked to come back, not to `fine` again.
    const took = push.received.filter((m) => m.status === 201).map((m) => m.endpoint);
    expect(took.sort()).toEqual([busy.endpoint, down.endpoint, fine.endpoint].sort());
    expect(push.received.filter((m) => m.endpoint === fine.endpoint)).toHaveLength(1);
    // A third run (the job retried once more for another channel): nothing is sent.
    expect(await deliverPush({ db: t.db, vapid: VAPID }, d)).toMatchObject({ sent: 0, skipped: 3 });
    // Another alert goes to all three again.
    await send(alert());
    expect(push.received.filter((m) => m.status === 201)).toHaveLength(6);
  });

  it("counts a push service that cannot be reached as retryable", async () => {
    const s = push.subscribe();
    await allow(t.db, parent, s);
    const dead = `http://127.0.0.1:9/push/${newId()}`;
    await t.db.updateTable("push_subscriptions").set({ endpoint: dead }).where("endpoint", "=", s.endpoint).execute();
    await expect(createPushSender({ db: t.db, vapid: VAPID })(alert())).rejects.toBeInstanceOf(PushRetryableError);
    expect(await endpoints(t.db, parent)).toEqual([dead]);
  });

  it("does not retry a message the push service refuses for good (403: another VAPID key), and keeps the browser", async () => {
    const s = push.subscribe();
    await allow(t.db, parent, s);
    push.answer(s.endpoint, 403);
    expect(await deliverPush({ db: t.db, vapid: VAPID }, alert())).toMatchObject({ sent: 0, refused: 1, retryable: 0 });
    expect(await endpoints(t.db, parent)).toEqual([s.endpoint]);
  });
});

describe("the push payload", () => {
  it("is the alert's title, text and path, nothing more", () => {
    const d = { alertId: "a1", parentId: "p1", title: "T", body: "B", url: "/requests" };
    expect(JSON.parse(pushPayload(d))).toStrictEqual({ title: "T", body: "B", url: "/requests" });
  });
  it("clips long text so the message fits one push record, and keeps links inside the portal", () => {
    const p = JSON.parse(pushPayload({ title: "x".repeat(500), body: "é".repeat(5000), url: "https://evil.example/" }));
    expect(p.title).toHaveLength(100);
    expect(p.body).toHaveLength(500);
    expect(p.url).toBe("/");
    expect(Buffer.byteLength(pushPayload({ title: "😀".repeat(500), body: "😀".repeat(5000), url: "/" + "a".repeat(499) }))).toBeLessThan(
      3993,
    );
    expect(JSON.parse(pushPayload({ title: "t", body: "b", url: "//evil.example/x" })).url).toBe("/");
  });
});
