import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../server/web.testing";
import { cachedGet, statementsDuring, tablesOf } from "./page-cache.testing";
import { newId } from "#core/ids.server";
import { setTimeRule } from "#db/queries/time-rules/rules";
import { createParent } from "#db/queries/parents";

// The real server (SQLite, demo family) answering /global-settings through the page cache (needs `remix build`).
let h: Awaited<ReturnType<typeof startTestServer>>;
const { KEYED_TABLES } = await import("./page-cache.server");
const { VIEW_REV_ROWS, VIEW_REV_TABLES } = await import("#db/view-revisions");

let cookie: string;
let mia: { profileId: string; deviceId: string; serial: string };
let url: string;

const get = (pathAndQuery: string, headers: Record<string, string> = { Cookie: cookie }) => cachedGet(h.base, pathAndQuery, headers);

const command = (type: string) => ({
  id: newId(),
  device_id: mia.deviceId,
  type,
  payload: "{}",
  status: "queued" as const,
  policy_version: null,
  issued_by: null,
  error: null,
  result: null,
  created_at: new Date().toISOString(),
  sent_at: null,
  completed_at: null,
  expires_at: null,
});

beforeAll(async () => {
  h = await startTestServer("page-cache-settings");
  ({ cookie } = await h.signIn("demo@kids-portal.test"));
  const d = await h.db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select(["devices.id", "devices.profile_id", "devices.serial_number"])
    .where("kid_profiles.name", "=", "Mia")
    .executeTakeFirstOrThrow();
  mia = { profileId: d.profile_id, deviceId: d.id, serial: d.serial_number };
  url = `/global-settings?profileId=${mia.profileId}&serialNumber=${mia.serial}`;
});
afterAll(async () => {
  await h?.started.close();
});

describe("Global Settings through the page cache", () => {
  it("answers a repeat view and its single-fetch data from the cache", async () => {
    const first = await get(url);
    const second = await get(url);
    expect(first.res.status).toBe(200);
    expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
    expect(second.html).toBe(first.html);
    expect(second.html).toContain("Not ringing.");
    expect(second.res.headers.get("cache-control")).toBe("no-store");
    expect(second.res.headers.get("content-security-policy")).not.toContain("nonce-");
    const data = `/global-settings.data?profileId=${mia.profileId}&serialNumber=${mia.serial}`;
    expect([(await get(data)).cache, (await get(data)).cache]).toEqual(["miss", "hit"]);
    // A draft in the URL is its own page.
    const draft = await get(`${url}&limit=95`);
    expect(draft.cache).toBe("miss");
    expect(draft.html).not.toBe(first.html);
  });

  it("a ring shows on the very next view; a Lock or a policy push keeps the cached page", async () => {
    await get(url);
    expect((await get(url)).cache).toBe("hit");
    await h.db.insertInto("device_commands").values(command("LOCK")).execute();
    await h.db.insertInto("device_commands").values(command("APPLY_POLICY")).execute();
    expect((await get(url)).cache).toBe("hit");
    const ring = command("RING");
    await h.db.insertInto("device_commands").values(ring).execute();
    const starting = await get(url);
    expect(starting.cache).toBe("miss");
    expect(starting.html).toContain("Waiting for the phone to start ringing.");
    expect((await get(url)).cache).toBe("hit");
    // The phone's acknowledgement is a status change of the same row.
    await h.db.updateTable("device_commands").set({ status: "acknowledged" }).where("id", "=", ring.id).execute();
    const ringing = await get(url);
    expect(ringing.cache).toBe("miss");
    expect(ringing.html).toContain("The phone is ringing.");
    await h.db.updateTable("device_commands").set({ status: "acknowledged" }).where("type", "in", ["RING", "STOP_SOUND"]).execute();
    await h.db
      .insertInto("device_commands")
      .values({ ...command("STOP_SOUND"), status: "acknowledged" as const })
      .execute();
    expect((await get(url)).html).toContain("Not ringing.");
  });

  it("a weekday limit, a saved daily limit and the parent's time zone show on the very next view", async () => {
    await get(url);
    const before = await get(url);
    expect(before.cache).toBe("hit");
    expect(before.html).not.toMatch(/name="day6"[^>]*value="105"/);
    expect(before.html).not.toMatch(/name="minutes"[^>]*value="120"/);
    await setTimeRule(h.db, mia.profileId, "phone", "", { weekdayMinutes: [15, 30, 45, 60, 75, 90, 105] });
    const byDay = await get(url);
    expect(byDay.cache).toBe("miss");
    expect(byDay.html).not.toBe(before.html);
    expect(byDay.html).toMatch(/name="day6"[^>]*value="105"/);

    // The parent's own form: the answer carries a toast (not cached), the next plain view shows the saved limit.
    const saved = await h.post(url, { intent: "limit", minutes: "120" }, cookie);
    expect(saved.status).toBe(302);
    const after = await get(url);
    expect(after.cache).toBe("miss");
    expect(after.html).toMatch(/name="minutes"[^>]*value="120"/);

    expect((await get(url)).cache).toBe("hit");
    await h.db.updateTable("parents").set({ time_zone: "Europe/Berlin" }).where("email", "=", "demo@kids-portal.test").execute();
    const zoned = await get(url);
    expect(zoned.cache).toBe("miss");
    expect(zoned.html).toMatch(/<option value="Europe\/Berlin" selected="">/);
  });

  it("who changed the limit: a new name or e-mail of that parent shows on the owner's very next view", async () => {
    const sam = await createParent(h.db, { email: `sam-${newId()}@example.test`, name: "Sam", passwordHash: null });
    const owner = await h.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", mia.profileId).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const delegation = newId();
    await h.db
      .insertInto("delegations")
      .values({
        id: delegation,
        owner_parent_id: owner.parent_id,
        delegate_email: sam.email,
        delegate_name: "Sam",
        status: "Accepted",
        created_at: now,
        updated_at: now,
        responded_by: sam.id,
        responded_at: now,
        revoked_at: null,
      })
      .execute();
    await h.db.insertInto("delegation_kids").values({ delegation_id: delegation, profile_id: mia.profileId }).execute();
    await h.db.deleteFrom("global_settings").where("device_id", "=", mia.deviceId).where("key", "=", "GlobalDailyLimit").execute();
    await h.db
      .insertInto("global_settings")
      .values({ device_id: mia.deviceId, key: "GlobalDailyLimit", value: "90", updated_at: now, updated_by: sam.id })
      .execute();
    await get(url);
    const before = await get(url);
    expect(before.cache).toBe("hit");
    // React's text separators (<!-- -->) aside.
    const text = (html: string) => html.replace(/<!-- -->/g, "");
    expect(text(before.html)).toContain(`Changed by Sam (${sam.email}).`);
    await h.db.updateTable("parents").set({ name: "Samantha" }).where("id", "=", sam.id).execute();
    const after = await get(url);
    expect(after.cache).toBe("miss");
    expect(text(after.html)).toContain(`Changed by Samantha (${sam.email}).`);
  });

  it("is looked up only for a URL naming the kid; opening it with isPlaying rings the phone every time it is allowed to", async () => {
    const bare = await get("/global-settings");
    expect(bare.res.status).toBe(302);
    expect(bare.cache).toBeNull();
    await h.db.updateTable("device_commands").set({ status: "acknowledged" }).where("device_id", "=", mia.deviceId).execute();
    const rings = async () =>
      (await h.db.selectFrom("device_commands").select("id").where("device_id", "=", mia.deviceId).where("type", "=", "RING").execute())
        .length;
    const n = await rings();
    const ring = await get(`${url}&isPlaying=true`);
    expect(ring.res.status).toBe(302);
    expect(await rings()).toBe(n + 1);
    const again = await get(`${url}&isPlaying=true`);
    expect(again.res.status).toBe(302);
    expect(again.cache).not.toBe("hit");
  });

  it("another family asking for the same URL gets the not-found page, from neither cache nor render of Mia's", async () => {
    await get(url);
    expect((await get(url)).cache).toBe("hit");
    const other = await createParent(h.db, { email: `other-${newId()}@example.test`, name: "Other Parent", passwordHash: null });
    const s = await h.signIn({ id: other.id });
    const theirs = await get(url, { Cookie: s.cookie });
    expect(theirs.res.status).toBe(404);
    expect(theirs.html).not.toContain("Mia");
  });

  it("reads only tables whose writes move view_rev or that the key covers, and device_commands only through its ring rows", async () => {
    h.started.pageCache.clear();
    const statements = await statementsDuring(async () => {
      for (const q of ["", "&limit=90", "&fullAccess=on", "&fullAccess=off", "&day0=45&day1=50"]) {
        const r = await get(`${url}${q}`);
        expect(r.res.status).toBe(200);
      }
      expect((await get(`/global-settings.data?profileId=${mia.profileId}&serialNumber=${mia.serial}`)).res.status).toBe(200);
    });
    const seen = tablesOf(statements);
    const allowed = new Set<string>([...VIEW_REV_TABLES, ...KEYED_TABLES, ...Object.keys(VIEW_REV_ROWS)]);
    expect(seen.size).toBeGreaterThan(5);
    expect([...seen].filter((t) => !allowed.has(t))).toEqual([]);
    // Every statement on a partly covered table filters on the covered rows' column, with one value per covered value.
    for (const [table, { column, values }] of Object.entries(VIEW_REV_ROWS)) {
      const reads = statements.filter((text) => tablesOf([text]).has(table));
      expect(reads.length).toBeGreaterThan(0);
      for (const text of reads) expect(text).toContain(`"${column}" in (${values.map(() => "?").join(", ")})`);
    }
  });
});
