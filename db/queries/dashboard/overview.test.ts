import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../index.testing";
import { getKidOverview } from "./overview";
import { useDemoFamily } from "./dashboard.testing";

describe.each(DIALECTS)("dashboard overview query on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("reads a kid with device, status and last location", async () => {
    const { t, leo } = f;
    const o = await getKidOverview(t.db, leo.profileId);
    expect(o?.profile.name).toBe("Leo");
    expect(o?.device).toMatchObject({
      serialNumber: "DEMO-LEO-0002",
      batteryPercentage: 15,
      kidsAppStatus: "Unhealthy",
      additionalData: "Usage access, Display over other apps",
    });
    expect(o?.device?.lastLocation?.latitude).toBeCloseTo(51.5079);
    expect(await getKidOverview(t.db, "nope")).toBeNull();
  });
});
