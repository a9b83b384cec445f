import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import dnsPacket from "dns-packet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateWebFilterSettings } from "../db/queries/web-filter/settings";
import { kdig } from "../web-filter/servers/kdig.testing";
import { a, startFakeUpstream } from "../web-filter/resolver/upstream/fake-upstream.testing";
import { startTestServer } from "./web.testing";

/**
 * The web filter wired into the real web process (issue 54 item 1): every kid has a filter id, DoH is served at
 * /dns-query/<id> on the web port and DoT on DNS_DOT_PORT, in front of a local upstream, by the database policy.
 */
const DOMAIN = "dns.portal.test";
let t: Awaited<ReturnType<typeof startTestServer>>;
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let kid: { id: string; filterId: string };

beforeAll(async () => {
  upstream = await startFakeUpstream({
    "A example.com": { answers: [a("example.com", "93.184.216.34", 300)] },
    "A facebook.com": { answers: [a("facebook.com", "157.240.1.35", 300)] },
  });
  t = await startTestServer("web-filter", { DNS_UPSTREAM: upstream.address, DNS_FILTER_DOMAIN: DOMAIN, DNS_UPSTREAM_TIMEOUT_MS: "500" });
  const row = await t.db
    .selectFrom("kid_profiles")
    .innerJoin("web_filter_settings", "web_filter_settings.profile_id", "kid_profiles.id")
    .select(["kid_profiles.id", "web_filter_settings.filter_id", "web_filter_settings.revoked_at"])
    .orderBy("kid_profiles.created_at")
    .executeTakeFirstOrThrow();
  expect(row.revoked_at).toBeNull();
  kid = { id: row.id, filterId: row.filter_id };
}, 60_000);
afterAll(async () => {
  await t?.started.close();
  await upstream?.close();
});

const query = (name: string, type: "A" | "AAAA" = "A") =>
  dnsPacket.encode({ type: "query", id: 0, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: "IN" }] });
const post = (filterId: string, name: string) =>
  fetch(`${t.base}/dns-query/${filterId}`, {
    method: "POST",
    headers: { "content-type": "application/dns-message", accept: "application/dns-message" },
    body: query(name),
  });
const get = (filterId: string, name: string) => fetch(`${t.base}/dns-query/${filterId}?dns=${query(name).toString("base64url")}`);
const addresses = async (res: Response) => {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/dns-message");
  const answer = dnsPacket.decode(Buffer.from(await res.arrayBuffer()));
  return (answer.answers ?? []).map((r) => `${r.type} ${"data" in r ? String(r.data) : ""}`);
};

describe("the web filter in the web process", () => {
  it("gives every kid a live filter id at start-up, and the service names its hostname and DoH address", async () => {
    const kids = await t.db.selectFrom("kid_profiles").select("id").execute();
    const ids = await t.db.selectFrom("web_filter_settings").select("profile_id").where("revoked_at", "is", null).execute();
    expect(kids.length).toBeGreaterThan(0);
    expect(ids.map((r) => r.profile_id).sort()).toEqual(kids.map((k) => k.id).sort());
    const service = t.started.services.webFilter!;
    expect(service.hostname(kid.filterId)).toBe(`${kid.filterId}.${DOMAIN}`);
    expect(service.dohUrl(kid.filterId)).toBe(`http://portal.test/dns-query/${kid.filterId}`);
    expect(service.countsByCategory().get("social-networks")).toBeGreaterThan(0);
  });

  it("answers DoH POST and GET from the upstream, with no session, cookie or Origin", async () => {
    expect(await addresses(await post(kid.filterId, "example.com"))).toEqual(["A 93.184.216.34"]);
    expect(await addresses(await get(kid.filterId, "example.com"))).toEqual(["A 93.184.216.34"]);
  });

  it("an unknown filter id is 404, and nothing is asked upstream", async () => {
    const before = upstream.count("A", "facebook.com");
    expect((await post("unknownfilterid00000", "facebook.com")).status).toBe(404);
    expect((await get("unknownfilterid00000", "facebook.com")).status).toBe(404);
    expect(upstream.count("A", "facebook.com")).toBe(before);
  });

  it("blocks a category once the kid's settings change and the service is told", async () => {
    expect(await addresses(await post(kid.filterId, "facebook.com"))).toEqual(["A 157.240.1.35"]);
    await updateWebFilterSettings(t.db, kid.id, { blockedCategories: [{ categoryId: "social-networks", scheduleId: null }] });
    await t.started.services.webFilter!.kidChanged(kid.id);
    expect(await addresses(await post(kid.filterId, "facebook.com"))).toEqual(["A 0.0.0.0"]);
    expect(await addresses(await get(kid.filterId, "www.facebook.com"))).toEqual(["A 0.0.0.0"]);
  });

  it("a /browser-logs block of the kid's phone blocks the host and its subdomains (the phone's policy changed)", async () => {
    expect(await addresses(await post(kid.filterId, "example.com"))).toEqual(["A 93.184.216.34"]);
    const device = await t.db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.serial_number", "kid_profiles.parent_id"])
      .where("devices.profile_id", "=", kid.id)
      .executeTakeFirstOrThrow();
    const parent = await t.db
      .selectFrom("parents")
      .select(["id", "email", "role"])
      .where("id", "=", device.parent_id)
      .executeTakeFirstOrThrow();
    await t.started.services.device(parent).browser.create({ serialNumber: device.serial_number, url: "example.com", isBlocked: true });
    await expect.poll(async () => addresses(await get(kid.filterId, "www.example.com"))).toEqual(["A 0.0.0.0"]);
    await t.started.services.device(parent).browser.create({ serialNumber: device.serial_number, url: "example.com", isBlocked: false });
    await expect.poll(async () => addresses(await post(kid.filterId, "example.com"))).toEqual(["A 93.184.216.34"]);
  });

  it("records the kid's lookups as visited sites, per domain and hour, at the next flush; no lookup reaches the log files", async () => {
    expect((await post(kid.filterId, "www.Example.com")).status).toBe(200);
    await t.started.services.webFilterRuntime!.visits.flush();
    const rows = await t.db
      .selectFrom("web_visits")
      .select(["domain", "hour", "count", "blocked", "reason"])
      .where("profile_id", "=", kid.id)
      .orderBy("domain")
      .execute();
    const by = Object.fromEntries(rows.map((r) => [r.domain, r]));
    // www. is coalesced into the domain; the latest lookup of the hour says blocked or not.
    expect(Object.keys(by).sort()).toEqual(["example.com", "facebook.com"]);
    expect(Number(by["example.com"]!.count)).toBeGreaterThanOrEqual(4);
    expect(by["example.com"]).toMatchObject({ blocked: 0, reason: null });
    expect(by["facebook.com"]).toMatchObject({ blocked: 1, reason: "category:social-networks" });
    expect(by["facebook.com"]!.hour).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}$/);
    const logDir = path.join(process.env.DATA_DIR!, "logs");
    const logs = existsSync(logDir)
      ? readdirSync(logDir)
          .map((f) => readFileSync(path.join(logDir, f), "utf8"))
          .join("\n")
      : "";
    expect(logs).not.toMatch(/example\.com|facebook\.com/i);
  });

  it("a kid added by the parent has a filter id at once; a removed kid's id is refused", async () => {
    const kids = async () => new Set((await t.db.selectFrom("kid_profiles").select("id").execute()).map((k) => k.id));
    const before = await kids();
    const { cookie } = await t.signIn("demo@kids-portal.test");
    const added = await t.post("/kids-device", { intent: "add-kid", kidName: "Ada", birthMonth: "4", birthYear: "2016" }, cookie);
    expect(added.status).toBe(302);
    const newKid = [...(await kids())].find((id) => !before.has(id))!;
    const { filter_id: filterId } = await t.db
      .selectFrom("web_filter_settings")
      .select("filter_id")
      .where("profile_id", "=", newKid)
      .executeTakeFirstOrThrow();
    expect(await addresses(await post(filterId, "example.com"))).toEqual(["A 93.184.216.34"]);

    const removed = await t.post("/kids-device", { intent: "remove-kid", profileId: newKid }, cookie);
    expect(removed.status).toBe(302);
    expect(await kids()).not.toContain(newKid);
    await expect.poll(async () => (await post(filterId, "example.com")).status).toBe(404);
  });

  it("serves DNS-over-TLS on its port, the kid named by the server name", async () => {
    const port = t.started.dotPort!;
    expect(port).toBeGreaterThan(0);
    const ok = await kdig(["@127.0.0.1", "-p", String(port), "+tls", `+tls-sni=${kid.filterId}.${DOMAIN}`, "example.com"]);
    expect(ok.status, ok.output).toBe("NOERROR");
    expect(ok.answers[0]).toMatch(/^example\.com\. \d+ A 93\.184\.216\.34$/);
    const unknown = await kdig(["@127.0.0.1", "-p", String(port), "+tls", `+tls-sni=unknownfilterid00000.${DOMAIN}`, "example.com"]);
    expect(unknown.status, unknown.output).toBe("REFUSED");
  });
});
