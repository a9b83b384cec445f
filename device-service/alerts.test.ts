import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";
import { TAMPER_KINDS } from "./simulator/tamper";

const run = promisify(execFile);
const LEO = "DEMO-LEO-0002";

/** Alerts from a phone (issue 55): requests, battery, tampering and limits, through the socket and the simulator's command line. */
describe("alerts from a phone", () => {
  let h: Harness;
  let leo: { profileId: string; deviceId: string; name: string };
  let credential: string;
  const alertsOf = (kind: string) =>
    h.tdb.db
      .selectFrom("alerts")
      .select(["parent_id", "title", "event_id"])
      .where("profile_id", "=", leo.profileId)
      .where("kind", "=", kind as never)
      .execute();
  const sim = (...args: string[]) =>
    run(
      process.execPath,
      ["--import", "tsx", "device-service/simulator/cli.ts", ...args, "--url", h.url, "--credential", credential, "--serial", LEO],
      {
        timeout: 30_000,
      },
    );

  beforeAll(async () => {
    h = await startHarness();
    leo = await h.kid(LEO);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("a request from the phone raises one alert for the family's parent, delivered to the centre", async () => {
    const phone = await h.phone(LEO);
    const id = await phone.requests.ask("install", "com.mojang.minecraftpe");
    await phone.requests.ask("install", "com.mojang.minecraftpe", { id }); // the same frame again: one request, one alert
    const rows = await alertsOf("request.install");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ parent_id: h.demo.id });
    expect(rows[0].title).toMatch(/^Leo asked to install /);
    await waitFor(async () => {
      const d = await h.tdb.db.selectFrom("alert_deliveries").select("state").where("channel", "=", "centre").executeTakeFirst();
      return d?.state === "sent";
    });
    await phone.close();
  });

  it("a phone arriving at a place raises place.arrive with the place's name (the places' events reach the pipeline)", async () => {
    const ts = new Date().toISOString();
    await h.tdb.db
      .insertInto("places")
      .values({
        id: "place-test-school",
        parent_id: h.demo.id,
        profile_id: leo.profileId,
        name: "Test School",
        latitude: 48.2,
        longitude: 16.37,
        radius_m: 200,
        created_by: h.demo.id,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const phone = await h.phone(LEO);
    // Far away first (decided outside, no event), then at the centre: one arrival.
    await phone.moveAlong([
      { latitude: 48.25, longitude: 16.37 },
      { latitude: 48.2, longitude: 16.37 },
    ]);
    await waitFor(async () => (await alertsOf("place.arrive")).length > 0);
    expect((await alertsOf("place.arrive")).map((r) => r.title)).toEqual(["Leo arrived at Test School"]);
    await phone.close();
  });

  it("a limit the phone enforces raises limit.reached once a day", async () => {
    const phone = await h.phone(LEO);
    const app = await h.tdb.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", leo.deviceId)
      .where("is_installed", "=", 1)
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 2; i++) await phone.send("app_state", { packageName: app.package_name, disabled: true, reason: "Overuse" });
    const rows = await alertsOf("limit.reached");
    expect(rows).toHaveLength(1);
    expect(rows[0].title).toMatch(/^Leo reached the daily limit on /);
    await phone.close();
  });

  it("npm run device:sim -- status --battery 12 and --tamper <kind> raise each alert", async () => {
    credential = (await h.phone(LEO, { connect: false })).credential!;
    const { stdout } = await sim("status", "--battery", "12");
    expect(stdout).toMatch(/status stored \(battery 12 %\)/);
    expect((await alertsOf("battery.low")).map((r) => r.title)).toEqual(["Leo's phone battery is at 12 %"]);
    for (const kind of TAMPER_KINDS) {
      await sim("status", "--tamper", kind);
      expect(await alertsOf(`tamper.${kind}`)).toHaveLength(1);
    }
  }, 120_000);

  it("the simulator refuses a bad --tamper or --battery with a clear message", async () => {
    await expect(sim("status", "--tamper", "wifi-off")).rejects.toMatchObject({ stderr: expect.stringContaining("--tamper takes one of") });
    await expect(sim("status", "--battery", "120")).rejects.toMatchObject({
      stderr: expect.stringContaining("--battery takes a whole percent"),
    });
    const { stdout } = await run(process.execPath, ["--import", "tsx", "device-service/simulator/cli.ts", "--help"]);
    expect(stdout).toContain("--tamper <kind>");
  }, 60_000);
});
