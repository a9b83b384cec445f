import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitFor, type Harness } from "../../server/harness.testing";
import { parseEnv } from "#core/env.server";
import { readToast } from "~/utils/toast.server";
import * as deviceInfo from "./_app.device-info";
import * as globalSettings from "./_app.global-settings";
import * as locationSettings from "./_app.location-settings";

process.env.SESSION_SECRET ??= "t".repeat(40);
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "device-controls-test-"));

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

/** Issue 11 item 4: clear, safe controls on /device-info and /global-settings, through their loaders and actions. */
describe("device controls", () => {
  let h: Harness;
  let context: AppLoadContext;
  let token: string;
  let mia: { profileId: string; deviceId: string };
  let leo: { profileId: string; deviceId: string };
  beforeAll(async () => {
    h = await startHarness();
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: "t".repeat(40) });
    context = { services: { env, db: h.tdb.db, device: h.caller, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
    token = await h.sessionFor(h.demo.id);
    mia = await h.kid(MIA);
    leo = await h.kid(LEO);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const req = (url: string, form?: Record<string, string>, headers: Record<string, string> = {}) =>
    new Request(`http://localhost${url}`, {
      method: form ? "POST" : "GET",
      headers: { Authorization: `Bearer ${token}`, ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}), ...headers },
      body: form ? new URLSearchParams(form) : undefined,
    });
  const call = async (fn: unknown, url: string, form?: Record<string, string>, headers?: Record<string, string>) => {
    try {
      return (await (fn as (a: object) => Promise<Response>)({
        request: req(url, form, headers),
        context: { ...context },
        params: {},
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  const json = async <T>(res: Response) => (await res.json()) as T;
  const toastOf = async (res: Response) =>
    (await readToast(new Request("http://localhost/", { headers: { Cookie: (res.headers.get("Set-Cookie") ?? "").split(";")[0] } }))).toast;
  const commands = (deviceId: string, type: string) =>
    h.tdb.db.selectFrom("device_commands").select(["id", "status"]).where("device_id", "=", deviceId).where("type", "=", type).execute();

  it("Lock and Reboot ask first: the buttons open ?confirm=…, an unconfirmed post is asked about and sends nothing", async () => {
    const page = `/device-info?profile_id=${mia.profileId}&serialNumber=${MIA}`;
    const plain = await json<{ confirm: string | null; askHref: { lock: string; reboot: string } }>(await call(deviceInfo.loader, page));
    expect(plain.confirm).toBeNull();
    expect(plain.askHref.lock).toBe(`${page}&confirm=lock`);
    expect(plain.askHref.reboot).toBe(`${page}&confirm=reboot`);
    expect((await json<{ confirm: string }>(await call(deviceInfo.loader, `${page}&confirm=lock`))).confirm).toBe("lock");

    for (const intent of ["lock", "reboot"] as const) {
      const asked = await call(deviceInfo.action, page, { intent });
      expect(asked.status).toBe(302);
      expect(asked.headers.get("Location")).toBe(`${page}&confirm=${intent}`);
    }
    expect(await commands(mia.deviceId, "LOCK")).toHaveLength(0);
    expect(await commands(mia.deviceId, "REBOOT")).toHaveLength(0);

    const locked = await call(deviceInfo.action, `${page}&confirm=lock`, { intent: "lock", confirmed: "yes" });
    expect(locked.headers.get("Location")).toBe(page);
    expect(await toastOf(locked)).toMatchObject({ type: "success" });
    expect(await commands(mia.deviceId, "LOCK")).toHaveLength(1);
  });

  it("a confirmed Lock, Reboot or Sync naming a phone that is not the named kid's answers 404 and sends nothing", async () => {
    // Both are this parent's: Leo's phone under Mia's id, and ids that are no record at all.
    const before = (await commands(leo.deviceId, "LOCK")).length;
    for (const [url, form] of [
      [`/device-info?profile_id=${mia.profileId}&serialNumber=${LEO}`, { intent: "lock", confirmed: "yes" }],
      [`/device-info?profile_id=${mia.profileId}&serialNumber=${LEO}`, { intent: "reboot", confirmed: "yes" }],
      [`/device-info?profile_id=${mia.profileId}&serialNumber=${LEO}`, { intent: "sync" }],
      [`/device-info?profile_id=&serialNumber=${LEO}`, { intent: "lock", confirmed: "yes" }],
      [`/device-info?profile_id=${leo.profileId}&serialNumber=NOT-A-PHONE`, { intent: "lock", confirmed: "yes" }],
    ] as const) {
      const res = await call(deviceInfo.action, url, form);
      expect(res.status, `${form.intent} ${url}`).toBe(404);
    }
    expect(await commands(leo.deviceId, "LOCK")).toHaveLength(before);
    expect(await commands(leo.deviceId, "REBOOT")).toHaveLength(0);
    expect(await commands(leo.deviceId, "SYNC")).toHaveLength(0);
    // The same post with the right kid goes through.
    const locked = await call(deviceInfo.action, `/device-info?profile_id=${leo.profileId}&serialNumber=${LEO}`, {
      intent: "lock",
      confirmed: "yes",
    });
    expect(await toastOf(locked)).toMatchObject({ type: "success", message: expect.stringMatching(/^Lock command sent to Leo's phone\./) });
    expect(await commands(leo.deviceId, "LOCK")).toHaveLength(before + 1);
  });

  it("Ring This Device shows the phone's real state: Stop Sound while asked and ringing, kept on coming back; Play Sound once stopped", async () => {
    const page = `/global-settings?profileId=${leo.profileId}&serialNumber=${LEO}`;
    const ring = async () => (await json<{ ring: { state: string; playing: boolean } }>(await call(globalSettings.loader, page))).ring;
    expect(await ring()).toEqual({ state: "stopped", playing: false, text: "Not ringing." });

    const played = await call(globalSettings.action, page, { intent: "ring", ring: "play" });
    expect(played.headers.get("Location")).toBe(`${page}#ring`);
    // Coming back to the page (no isPlaying in the URL) still offers Stop Sound.
    expect(await ring()).toMatchObject({ state: "starting", playing: true });

    const phone = await h.phone(LEO);
    await waitFor(async () => (await commands(leo.deviceId, "RING")).every((c) => c.status === "acknowledged"));
    expect(await ring()).toMatchObject({ state: "ringing", playing: true, text: "The phone is ringing." });
    await waitFor(async () => phone.state.ringing);

    await call(globalSettings.action, page, { intent: "ring", ring: "stop" });
    await waitFor(async () => (await commands(leo.deviceId, "STOP_SOUND")).every((c) => c.status === "acknowledged"));
    expect(await ring()).toMatchObject({ state: "stopped", playing: false });
    expect(phone.state.ringing).toBe(false);
  });

  it("isPlaying=true starts ringing (spec 1 §4) once, then drops from the URL; not from another site", async () => {
    const page = `/global-settings?profileId=${mia.profileId}&serialNumber=${MIA}`;
    const crossSite = await call(globalSettings.loader, `${page}&isPlaying=true`, undefined, { "Sec-Fetch-Site": "cross-site" });
    expect(crossSite.status).toBe(302);
    expect(crossSite.headers.get("Location")).toBe(page);
    expect(await commands(mia.deviceId, "RING")).toHaveLength(0);

    const opened = await call(globalSettings.loader, `${page}&isPlaying=true`);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(`${page}#ring`);
    expect(await toastOf(opened)).toMatchObject({ type: "success" });
    expect(await commands(mia.deviceId, "RING")).toHaveLength(1);
    // Already asked to ring: opening it again sends nothing more.
    await call(globalSettings.loader, `${page}&isPlaying=true`);
    expect(await commands(mia.deviceId, "RING")).toHaveLength(1);
  });

  it("Allow Full Settings follows the page's one pattern (switch, then Save) and the toast says what the dashboard then shows", async () => {
    const page = `/global-settings?profileId=${mia.profileId}&serialNumber=${MIA}`;
    const allowed = async () =>
      (await h.tdb.db.selectFrom("devices").select("allow_full_device_access").where("id", "=", mia.deviceId).executeTakeFirstOrThrow())
        .allow_full_device_access;
    // Without JavaScript the switch keeps a draft in the URL; nothing is saved yet.
    const draft = await call(globalSettings.action, page, { intent: "full-access", "fullAccess:on": "Allow Full Settings" });
    expect(draft.headers.get("Location")).toBe(`${page}&fullAccess=on#full-access`);
    expect(await toastOf(draft)).toEqual({ type: "info", message: "Not saved yet: press Save." });
    expect(await allowed()).toBe(0);
    expect(
      (await json<{ fullAccess: boolean; savedFullAccess: boolean }>(await call(globalSettings.loader, `${page}&fullAccess=on`)))
        .fullAccess,
    ).toBe(true);

    const saved = await call(globalSettings.action, `${page}&fullAccess=on`, { intent: "full-access", allowFullAccess: "on" });
    expect(saved.headers.get("Location")).toBe(`${page}#full-access`);
    expect((await toastOf(saved))?.message).toMatch(/^Full device access is allowed: protections are off on Mia's phone\./);
    expect(await allowed()).toBe(1);
    const off = await call(globalSettings.action, page, { intent: "full-access", allowFullAccess: "off" });
    expect((await toastOf(off))?.message).toMatch(/^Full device access is off/);
    expect(await allowed()).toBe(0);
  });

  it("the location interval and the global limit refuse a non-multiple of 15 the same way: the spec's message under the field, the value reset to 0, nothing saved", async () => {
    const kidQs = `profileId=${leo.profileId}&serialNumber=${LEO}`;
    const before = await h.tdb.db
      .selectFrom("location_settings")
      .select(["enable_location_tracking", "location_tracking_interval"])
      .where("device_id", "=", leo.deviceId)
      .executeTakeFirst();
    const location = await call(locationSettings.action, `/location-settings?${kidQs}`, {
      intent: "save",
      enableLocationTracking: "on",
      interval: "20",
    });
    const limit = await call(globalSettings.action, `/global-settings?${kidQs}`, { intent: "limit", minutes: "20" });
    expect(location.status).toBe(400);
    expect(limit.status).toBe(400);
    const refusedLocation = await json<{ error: string; minutes: number }>(location);
    const refusedLimit = await json<{ error: string; minutes: number }>(limit);
    expect(refusedLocation).toMatchObject({ error: "Please enter time multiple of 15.", minutes: 0 });
    expect(refusedLimit).toMatchObject({ error: "Please enter time multiple of 15.", minutes: 0 });
    const after = await h.tdb.db
      .selectFrom("location_settings")
      .select(["enable_location_tracking", "location_tracking_interval"])
      .where("device_id", "=", leo.deviceId)
      .executeTakeFirst();
    expect(after).toEqual(before);
  });
});
