import { createECDH, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PUSH_BROWSERS } from "~/components/alerts/push-subscription.server";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import { action, loader } from "./resources.push-subscription";
import { loader as alertSettingsLoader } from "./_app.alert-settings";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

function browserSubscription(endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(9).toString("hex")}`) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { endpoint, p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}

describe("/resources/push-subscription", () => {
  let rh: RouteHarness;
  beforeAll(async () => {
    rh = await startRouteHarness();
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });
  const db = () => rh.h.tdb.db;
  const rowsOf = (parentId: string) =>
    db().selectFrom("push_subscriptions").selectAll().where("parent_id", "=", parentId).orderBy("created_at").execute();
  const subscribe = (sub: Record<string, string>, token?: string) =>
    rh.call(action, "/resources/push-subscription", { token, form: { intent: "subscribe", ...sub }, headers: { "User-Agent": CHROME } });

  it("gives the VAPID public key, and says whether this browser's endpoint is the parent's", async () => {
    const sub = browserSubscription();
    const before = await rh.call(loader, `/resources/push-subscription?endpoint=${encodeURIComponent(sub.endpoint)}`);
    const body = (await before.json()) as { publicKey: string; on: boolean };
    expect(before.headers.get("Cache-Control")).toBe("no-store");
    expect(Buffer.from(body.publicKey, "base64url")).toHaveLength(65);
    expect(body.on).toBe(false);
    expect((await subscribe(sub)).status).toBe(200);
    const after = await rh.call(loader, `/resources/push-subscription?endpoint=${encodeURIComponent(sub.endpoint)}`);
    expect(((await after.json()) as { on: boolean }).on).toBe(true);
    const asOther = await rh.call(loader, `/resources/push-subscription?endpoint=${encodeURIComponent(sub.endpoint)}`, {
      token: rh.otherToken,
    });
    expect(((await asOther.json()) as { on: boolean }).on).toBe(false);
    await db().deleteFrom("push_subscriptions").execute();
  });

  it("stores a browser of the signed-in parent with its label; the same browser again renews it", async () => {
    const sub = browserSubscription();
    const res = await subscribe(sub);
    expect(await res.json()).toEqual({ ok: true, message: "Notifications are on for this browser." });
    const renewed = { ...browserSubscription(sub.endpoint) };
    expect((await subscribe(renewed)).status).toBe(200);
    const rows = await rowsOf(rh.h.demo.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      endpoint: sub.endpoint,
      p256dh: renewed.p256dh,
      auth: renewed.auth,
      label: "Chrome on Linux",
      last_success_at: null,
    });
    await db().deleteFrom("push_subscriptions").execute();
  });

  it("refuses a browser another account holds, with a message, and leaves it with that account", async () => {
    const sub = browserSubscription();
    expect((await subscribe(sub, rh.otherToken)).status).toBe(200);
    const res = await subscribe(browserSubscription(sub.endpoint));
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(
      "This browser already gets notifications for another Kids Portal account. Turn them off there first, then try again.",
    );
    expect(await rowsOf(rh.h.demo.id)).toEqual([]);
    expect((await rowsOf(rh.h.other.id)).map((r) => [r.endpoint, r.p256dh])).toEqual([[sub.endpoint, sub.p256dh]]);
    // Nor can the demo parent turn it off for them.
    await rh.call(action, "/resources/push-subscription", { form: { intent: "unsubscribe", endpoint: sub.endpoint } });
    expect(await rowsOf(rh.h.other.id)).toHaveLength(1);
    await db().deleteFrom("push_subscriptions").execute();
  });

  it.each([
    ["https://evil.example/collect", "This browser's push service (evil.example) is not one we send notifications through"],
    ["http://fcm.googleapis.com/fcm/send/x", "not a secure (https) address"],
  ])("refuses an endpoint that is not a push service (%s) and stores nothing", async (endpoint, message) => {
    const res = await subscribe(browserSubscription(endpoint));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(message);
    expect(await rowsOf(rh.h.demo.id)).toEqual([]);
  });

  it("refuses broken keys and stores nothing", async () => {
    const res = await subscribe({ ...browserSubscription(), auth: "short" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/push keys are not valid/);
    expect(await rowsOf(rh.h.demo.id)).toEqual([]);
  });

  it(`takes at most ${MAX_PUSH_BROWSERS} browsers per parent`, async () => {
    for (let i = 0; i < MAX_PUSH_BROWSERS; i++) expect((await subscribe(browserSubscription())).status).toBe(200);
    const res = await subscribe(browserSubscription());
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(
      `You already get notifications in ${MAX_PUSH_BROWSERS} browsers. Turn one off below, then try again.`,
    );
    expect(await rowsOf(rh.h.demo.id)).toHaveLength(MAX_PUSH_BROWSERS);
    await db().deleteFrom("push_subscriptions").execute();
  });

  it("turns a browser off by its endpoint (JSON) or from the list by id (a form: back with a toast), the parent's own only", async () => {
    const a = browserSubscription();
    const b = browserSubscription();
    await subscribe(a);
    await subscribe(b);
    const off = await rh.call(action, "/resources/push-subscription", { form: { intent: "unsubscribe", endpoint: a.endpoint } });
    expect(await off.json()).toEqual({ ok: true, message: "Notifications are off for this browser." });
    const [row] = await rowsOf(rh.h.demo.id);
    expect(row!.endpoint).toBe(b.endpoint);
    const theirs = await rh.call(action, "/resources/push-subscription", {
      token: rh.otherToken,
      form: { intent: "remove", id: row!.id, redirectTo: "/alert-settings" },
    });
    expect(await rh.toastOf(theirs)).toMatchObject({ type: "error", message: "That browser was already removed." });
    expect(await rowsOf(rh.h.demo.id)).toHaveLength(1);
    const mine = await rh.call(action, "/resources/push-subscription", {
      form: { intent: "remove", id: row!.id, redirectTo: "https://evil.example/" },
    });
    expect(mine.status).toBe(302);
    expect(mine.headers.get("Location")).toBe("/alert-settings");
    expect(await rh.toastOf(mine)).toMatchObject({ type: "success", message: "That browser will no longer get notifications." });
    expect(await rowsOf(rh.h.demo.id)).toEqual([]);
  });

  it("is for signed-in parents only", async () => {
    const res = await rh.call(action, "/resources/push-subscription", {
      token: "nope",
      form: { intent: "subscribe", ...browserSubscription() },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
    expect(await db().selectFrom("push_subscriptions").selectAll().execute()).toEqual([]);
  });

  it("/alert-settings lists the parent's browsers and hands the page the VAPID public key", async () => {
    const sub = browserSubscription();
    await subscribe(sub);
    const data = (await (await rh.call(alertSettingsLoader, "/alert-settings")).json()) as {
      push: { publicKey: string; browsers: { label: string }[] };
    };
    expect(data.push.browsers.map((b) => b.label)).toEqual(["Chrome on Linux"]);
    expect(Buffer.from(data.push.publicKey, "base64url")).toHaveLength(65);
    await db().deleteFrom("push_subscriptions").execute();
  });
});
