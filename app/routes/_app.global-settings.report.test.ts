import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "#db/queries/sessions";
import { createTestDb, type TestDb } from "#db/index.testing";
import { makeFamily } from "#jobs/reports/reports.testing";
import { parseEnv } from "#core/env.server";
import { createLocalBus } from "#device-service/bus";
import { createDeviceCaller } from "#device-service/caller";
import type { ParentIdentity } from "#device-service/context";
import { action, loader } from "./_app.global-settings";

process.env.SESSION_SECRET ??= "g".repeat(40);
process.env.DATA_DIR ??= "/tmp/kids-portal-settings-report-test";

describe("Global Settings: report frequency and the family's time zone", () => {
  let t: TestDb;
  let context: AppLoadContext;
  let token: string;
  let path: string;
  let parentId: string;
  let deviceId: string;

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-settings-report-test", SESSION_SECRET: "g".repeat(40) });
    const deps = { db: t.db, bus: createLocalBus(), log: () => {} };
    context = {
      services: { env, ...deps, device: (parent: ParentIdentity | null) => createDeviceCaller({ ...deps, parent }) },
      cspNonce: "n",
    } as unknown as AppLoadContext;
    const f = await makeFamily(t.db, { name: "Mia", kind: "Weekly", tz: "UTC" });
    parentId = f.parent.id;
    token = await createSession(t.db, f.parent.id, { idleMinutes: 60, absoluteDays: 1 });
    const serial = (await t.db.selectFrom("devices").select("serial_number").where("id", "=", f.deviceId).executeTakeFirstOrThrow())
      .serial_number;
    path = `/global-settings?profileId=${f.profileId}&serialNumber=${serial}`;
    deviceId = f.deviceId;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const post = (fields: Record<string, string>) =>
    action({
      request: new Request(`http://localhost${path}`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Authorization: `Bearer ${token}` },
      }),
      context,
      params: {},
    }) as Promise<Response>;
  const parent = () =>
    t.db.selectFrom("parents").select(["kids_report_type", "time_zone"]).where("id", "=", parentId).executeTakeFirstOrThrow();

  it("shows the time zone (UTC until set) and the zones to choose from", async () => {
    const data = (await (
      (await loader({
        request: new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${token}` } }),
        context,
        params: {},
      })) as Response
    ).json()) as { timeZone: string; timeZones: string[] };
    expect(data.timeZone).toBe("UTC");
    expect(data.timeZones).toContain("Europe/London");
    expect(data.timeZones).toContain("UTC");
  });

  it("saves the frequency with the time zone, and refuses a zone that does not exist", async () => {
    await post({ intent: "report", kidsReportType: "Monthly", timeZone: "America/New_York" });
    expect(await parent()).toEqual({ kids_report_type: "Monthly", time_zone: "America/New_York" });
    const refused = await post({ intent: "report", kidsReportType: "Weekly", timeZone: "Mars/Olympus" });
    expect(refused.status).toBe(302);
    expect(await parent()).toEqual({ kids_report_type: "Monthly", time_zone: "America/New_York" });
  });

  it("a new time zone is the family's one zone: the phone gets a policy in it (time.setTimeZone)", async () => {
    const policy = () =>
      t.db
        .selectFrom("device_policies")
        .select(["version", "document"])
        .where("device_id", "=", deviceId)
        .orderBy("version", "desc")
        .executeTakeFirst();
    const before = (await policy())?.version ?? 0;
    const res = await post({ intent: "report", kidsReportType: "Weekly", timeZone: "Europe/London" });
    expect(res.status).toBe(302);
    expect(await parent()).toEqual({ kids_report_type: "Weekly", time_zone: "Europe/London" });
    const after = await policy();
    expect(after!.version).toBeGreaterThan(before);
    expect(JSON.parse(after!.document).timeZone).toBe("Europe/London");
  });
});
