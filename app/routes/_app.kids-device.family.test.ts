import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../server/web.testing";

// The real server (SQLite, demo family: Mia and Leo with phones): more kids, more phones, from the dashboard
// (needs `remix build`).
let h: Awaited<ReturnType<typeof startTestServer>>;

let started: (typeof h)["started"];
let cookie: string;
let mia: { profileId: string; deviceId: string };
let leo: { profileId: string; deviceId: string };

const get = (url: string) => h.get(url, cookie);
const post = (url: string, fields: Record<string, string>) => h.post(url, fields, cookie);
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

async function kidByName(name: string) {
  return started.services.db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select(["devices.id as deviceId", "devices.profile_id as profileId"])
    .where("kid_profiles.name", "=", name)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  h = await startTestServer("family");
  ({ started } = h);
  const db = started.services.db;
  cookie = (await h.signIn("demo@kids-portal.test")).cookie;
  mia = await kidByName("Mia");
  leo = await kidByName("Leo");
  await db.updateTable("device_status").set({ online: 1 }).where("device_id", "=", mia.deviceId).execute();
  await db
    .updateTable("device_status")
    .set({ online: 0, updated_at: "2026-11-20T09:05:00.000Z" })
    .where("device_id", "=", leo.deviceId)
    .execute();
});
afterAll(async () => {
  await started?.close();
});

describe("more kids, more phones, any time", () => {
  it("the switcher lists every kid with its phone's state and offers Add a kid", async () => {
    const { html } = await get(`/kids-device?profileId=${mia.profileId}`);
    const switcher = text(/<details class="kid-switch"[\s\S]*?<\/details>/.exec(html)?.[0] ?? "");
    expect(switcher).toContain("Mia · Online now");
    expect(switcher).toContain("Leo · Offline, last seen Nov 20, 2026, 9:05 AM UTC");
    expect(html).toContain(`href="/kids-device?profileId=${mia.profileId}&amp;modal=add-kid"`);
  });

  it("adds a kid from the switcher's popup, then shows that kid's enrollment step", async () => {
    const popup = await get(`/kids-device?profileId=${mia.profileId}&modal=add-kid`);
    expect(popup.res.status).toBe(200);
    expect(text(popup.html)).toContain("Add a kid");
    expect(popup.html).toMatch(/role="dialog"[^>]*>[\s\S]*name="kidName"/);
    const res = await post(`/kids-device?profileId=${mia.profileId}&modal=add-kid`, {
      intent: "add-kid",
      kidName: "Sam",
      birthMonth: "4",
      birthYear: "2016",
    });
    expect(res.status).toBe(302);
    const sam = await started.services.db.selectFrom("kid_profiles").select("id").where("name", "=", "Sam").executeTakeFirstOrThrow();
    expect(res.headers.get("location")).toBe(`/kids-device?profileId=${sam.id}&modal=enroll`);
    const { html } = await get(`/kids-device?profileId=${mia.profileId}`);
    expect(text(/<details class="kid-switch"[\s\S]*?<\/details>/.exec(html)?.[0] ?? "")).toContain("Sam · No phone yet");
  });

  it("replacing a phone asks first, then removes the old phone and leads to the new phone's code", async () => {
    const popup = await get(`/kids-device?profileId=${mia.profileId}&modal=replace-phone`);
    expect(text(popup.html)).toContain(
      "Mia's phone (DEMO-MIA-0001) will be removed from your account: it stops receiving your settings and commands, and anything still waiting for it is cancelled. Mia's history (screen time, locations, notifications) stays.",
    );
    const res = await post(`/kids-device?profileId=${mia.profileId}&modal=replace-phone`, {
      intent: "replace-phone",
      profileId: mia.profileId,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/kids-device?profileId=${mia.profileId}&modal=enroll`);
    const row = await started.services.db
      .selectFrom("devices")
      .select(["unenrolled_at", "credential_hash"])
      .where("id", "=", mia.deviceId)
      .executeTakeFirstOrThrow();
    expect(row.unenrolled_at).not.toBeNull();
    const after = await get(`/kids-device?profileId=${mia.profileId}&modal=enroll`);
    expect(text(after.html)).toContain("No devices have been added yet.");
    expect(after.html).toMatch(/role="dialog"[\s\S]*Show QR code/);
  });

  it("removing a kid says what is deleted, then deletes it", async () => {
    const popup = await get(`/kids-device?profileId=${leo.profileId}&modal=remove-kid`);
    expect(text(popup.html)).toContain(
      "This deletes Leo's profile and everything recorded for Leo: screen time, apps and limits, locations, notifications and requests. Leo's phone (DEMO-LEO-0002) is removed from your account and no longer managed. This cannot be undone.",
    );
    const res = await post(`/kids-device?profileId=${leo.profileId}&modal=remove-kid`, { intent: "remove-kid", profileId: leo.profileId });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/kids-device");
    expect(
      await started.services.db.selectFrom("kid_profiles").select("id").where("id", "=", leo.profileId).executeTakeFirst(),
    ).toBeUndefined();
  });
});
