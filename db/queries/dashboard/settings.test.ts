import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../index.testing";
import { getDeviceDetails } from "./device";
import { getGlobalDailyLimit } from "./limits";
import { getLocationSettings } from "./location";
import { setReportType } from "./reports";
import { useDemoFamily } from "./dashboard.testing";

// The settings pages' queries: global daily limit (limits.ts), location settings (location.ts), device
// details (device.ts) and the kids report frequency (reports.ts).
describe.each(DIALECTS)("dashboard settings queries on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("reads settings and device details, writes the report frequency", async () => {
    const { t, mia } = f;
    expect(await getGlobalDailyLimit(t.db, mia.deviceId)).toBe(180);
    expect(await getLocationSettings(t.db, mia.deviceId)).toEqual({ enableLocationTracking: true, locationTrackingInterval: 15 });
    const d = await getDeviceDetails(t.db, mia.deviceId);
    expect(d).toMatchObject({ serial_number: "DEMO-MIA-0001", brand: "Samsung", total_ram: "4 GB", battery_percentage: 76 });
    const parent = await t.db.selectFrom("parents").select("id").where("email", "=", "demo@kids-portal.test").executeTakeFirstOrThrow();
    await setReportType(t.db, parent.id, "Monthly");
    expect(
      (await t.db.selectFrom("parents").select("kids_report_type").where("id", "=", parent.id).executeTakeFirstOrThrow()).kids_report_type,
    ).toBe("Monthly");
  });
});
