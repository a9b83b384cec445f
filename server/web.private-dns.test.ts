import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateWebFilterSettings } from "../db/queries/web-filter/settings";
import { createEnrollmentToken } from "../device-service/enrollment";
import { applyPolicy } from "../device-service/policy/store";
import { SimulatedPhone } from "../device-service/simulator/phone";
import { readDevCertificate } from "../device-service/simulator/private-dns";
import { a, aaaa, startFakeUpstream } from "../web-filter/resolver/upstream/fake-upstream.testing";
import { startTestServer } from "./web.testing";

/**
 * The simulated phone behind the real web process (issue 54 item 4): it sets the Private DNS hostname its policy names,
 * looks names up over DNS-over-TLS on DNS_DOT_PORT (the development certificate trusted, the server name checked), gets
 * the filter's blocked answer for a blocked category and the upstream's for the rest, and the dashboard warns when the
 * kid turns Private DNS off or to another server.
 */
const run = promisify(execFile);
const DOMAIN = "dns.portal.test";
const SERIAL = "DEMO-MIA-0001";
let t: Awaited<ReturnType<typeof startTestServer>>;
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let phone: SimulatedPhone;
let kid: { profileId: string; parentId: string; deviceId: string; filterId: string };
let cookie: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({
    "A example.com": { answers: [a("example.com", "93.184.216.34", 300)] },
    "AAAA example.com": { answers: [aaaa("example.com", "2606:2800:220:1::1", 300)] },
    "A facebook.com": { answers: [a("facebook.com", "157.240.1.35", 300)] },
  });
  t = await startTestServer("private-dns", { DNS_UPSTREAM: upstream.address, DNS_FILTER_DOMAIN: DOMAIN, DNS_UPSTREAM_TIMEOUT_MS: "500" });
  const row = await t.db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .innerJoin("web_filter_settings", "web_filter_settings.profile_id", "kid_profiles.id")
    .select([
      "devices.id as deviceId",
      "kid_profiles.id as profileId",
      "kid_profiles.parent_id as parentId",
      "web_filter_settings.filter_id as filterId",
    ])
    .where("devices.serial_number", "=", SERIAL)
    .executeTakeFirstOrThrow();
  kid = row;
  cookie = (await t.signIn({ id: kid.parentId })).cookie;
  const hostname = `${kid.filterId}.${DOMAIN}`;
  phone = new SimulatedPhone({
    baseUrl: t.base,
    serialNumber: SERIAL,
    reconnect: false,
    // The development certificate the portal made in its DATA_DIR: self-signed, so it is its own authority.
    dot: { host: "127.0.0.1", port: t.started.dotPort!, ca: readDevCertificate(process.env.DATA_DIR!, hostname) },
  });
  const { token } = await createEnrollmentToken(t.db, { profileId: kid.profileId, parentId: kid.parentId, ttlMs: 60_000 });
  await phone.enroll(token);
  await phone.connect();
}, 60_000);
afterAll(async () => {
  await phone?.close();
  await t?.started.close();
  await upstream?.close();
});

const status = () =>
  t.db
    .selectFrom("device_status")
    .select(["private_dns_mode", "private_dns_hostname"])
    .where("device_id", "=", kid.deviceId)
    .executeTakeFirstOrThrow();
const dashboard = async () => (await t.get(`/kids-device?profileId=${kid.profileId}`, cookie)).html;
const WARNING_OFF = "Private DNS is off on this phone: the web filter does not apply.";

describe("the simulated phone's Private DNS through the web filter", () => {
  it("sets the hostname its policy names and reports it: no warning on the dashboard", async () => {
    expect(readDevCertificate(process.env.DATA_DIR!, `${kid.filterId}.${DOMAIN}`)).toBeDefined();
    await applyPolicy(t.started.services.deviceRuntime.deps, kid.deviceId);
    await expect.poll(async () => (await status()).private_dns_hostname, { timeout: 10_000 }).toBe(`${kid.filterId}.${DOMAIN}`);
    expect(phone.state.privateDns).toEqual({ mode: "hostname", hostname: `${kid.filterId}.${DOMAIN}` });
    const html = await dashboard();
    expect(html).not.toContain("Private DNS is off");
    expect(html).not.toContain('data-testid="private-dns-warning"');
  });

  it("a blocked category answers 0.0.0.0 (and ::), an allowed name the upstream's answer; the blocked visit is logged", async () => {
    await updateWebFilterSettings(t.db, kid.profileId, { blockedCategories: [{ categoryId: "social-networks", scheduleId: null }] });
    await t.started.services.webFilter!.kidChanged(kid.profileId);
    const blocked = await phone.lookup("facebook.com");
    expect(blocked).toMatchObject({
      via: "filter",
      hostname: `${kid.filterId}.${DOMAIN}`,
      rcode: "NOERROR",
      addresses: ["0.0.0.0"],
      blocked: true,
    });
    expect(await phone.lookup("www.facebook.com", "AAAA")).toMatchObject({ addresses: ["::"], blocked: true });
    expect(await phone.lookup("example.com")).toMatchObject({ via: "filter", addresses: ["93.184.216.34"], blocked: false });
    expect(await phone.lookup("example.com", "AAAA")).toMatchObject({ addresses: ["2606:2800:220:1::1"], blocked: false });
    expect(upstream.count("A", "facebook.com")).toBe(0);
    expect(phone.state.lookups.map((l) => [l.name, l.type, l.blocked])).toEqual([
      ["facebook.com", "A", true],
      ["www.facebook.com", "AAAA", true],
      ["example.com", "A", false],
      ["example.com", "AAAA", false],
    ]);
    // A visit looks its host up first: the filter's answer blocks it, and the portal logs it as blocked.
    expect(await phone.visit("https://www.facebook.com/groups")).toEqual({ blocked: true });
    expect(await phone.visit("https://example.com/")).toEqual({ blocked: false });
    const logged = await t.db
      .selectFrom("browser_logs")
      .select(["url", "blocked_visits"])
      .where("device_id", "=", kid.deviceId)
      .orderBy("url")
      .execute();
    expect(logged.map((l) => [l.url, Number(l.blocked_visits)])).toEqual([
      ["example.com", 0],
      ["www.facebook.com/groups", 1],
    ]);
  });

  it("checks the filter's certificate: without the development certificate to trust, the lookup fails", async () => {
    const stranger = new SimulatedPhone({
      baseUrl: t.base,
      serialNumber: "SIM-NOCA",
      privateDns: { mode: "hostname", hostname: `${kid.filterId}.${DOMAIN}` },
      dot: { host: "127.0.0.1", port: t.started.dotPort! },
    });
    const l = await stranger.lookup("example.com");
    expect(l.blocked).toBe(false);
    expect(l.error).toMatch(/certificate/i);
  });

  it("the kid turns Private DNS off: the phone reports it, its lookups leave the filter, and the dashboard warns", async () => {
    await phone.setPrivateDns({ mode: "off" });
    expect(await status()).toEqual({ private_dns_mode: "off", private_dns_hostname: null });
    expect(await phone.lookup("facebook.com")).toMatchObject({ via: "network", blocked: false });
    const html = await dashboard();
    expect(html).toContain(WARNING_OFF);
    expect(html).toContain(`href="/web-filter?profileId=${kid.profileId}&amp;serialNumber=${SERIAL}#private-dns"`);
    const page = (await t.get(`/web-filter?profileId=${kid.profileId}&serialNumber=${SERIAL}`, cookie)).html;
    expect(page).toContain(WARNING_OFF);

    // Another server: the filter sees none of its lookups either.
    await phone.setPrivateDns({ mode: "hostname", hostname: "dns.google" });
    expect(await dashboard()).toContain("Private DNS on this phone is set to another server: dns.google. The web filter does not apply.");

    await phone.setPrivateDns(null);
    expect(await status()).toEqual({ private_dns_mode: "hostname", private_dns_hostname: `${kid.filterId}.${DOMAIN}` });
    const after = await dashboard();
    expect(after).not.toContain('data-testid="private-dns-warning"');
    expect((await t.get(`/web-filter?profileId=${kid.profileId}&serialNumber=${SERIAL}`, cookie)).html).toContain(
      "This phone uses this hostname: the web filter applies.",
    );
  });

  it("the command line: `lookup` through the phone's Private DNS prints the blocked answer and the allowed one", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        ...["--import", "tsx", "device-service/simulator/cli.ts", "lookup", "facebook.com", "example.com"],
        ...["--url", t.base, "--credential", phone.credential!, "--serial", SERIAL],
        ...["--private-dns", `${kid.filterId}.${DOMAIN}`, "--dot", `127.0.0.1:${t.started.dotPort!}`],
      ],
      { timeout: 30_000, env: { ...process.env } },
    );
    expect(stdout).toContain(`lookup facebook.com A via ${kid.filterId}.${DOMAIN}: blocked (0.0.0.0)`);
    expect(stdout).toContain(`lookup example.com A via ${kid.filterId}.${DOMAIN}: 93.184.216.34`);
  });
});
