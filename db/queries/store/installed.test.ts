import { describe, expect, it } from "vitest";
import { newId } from "../../../core/ids.server";
import { DIALECTS } from "../../index.testing";
import { useDemoFamily } from "../dashboard/dashboard.testing";
import { listDashboardInstalls } from "./installed";

/** Issue 13 item 5: the dashboard's list of store installs on their way (installing, failed and why). */
describe.each(DIALECTS)("dashboard installs on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("lists installing and failed store installs (IN_PROGRESS as installing), never installed apps or another phone's", async () => {
    expect(await listDashboardInstalls(f.t.db, f.mia.deviceId)).toEqual([]);
    const row = (
      pkg: string,
      state: "installing" | "failed" | "installed",
      reason: string | null,
      deviceId = f.mia.deviceId,
      profileId = f.mia.profileId,
      at = "2026-11-21T18:00:00.000Z",
    ) => ({
      id: newId(),
      profile_id: profileId,
      device_id: deviceId,
      package_name: pkg,
      is_installed: state === "installed" ? 1 : 0,
      install_state: state,
      installation_failure_reason: reason,
      install_type: "FORCE_INSTALLED",
      created_at: at,
      updated_at: at,
      updated_by: null,
    });
    await f.t.db
      .insertInto("profile_apps")
      .values([
        row("org.krita", "installing", null, undefined, undefined, "2026-11-21T18:03:00.000Z"),
        row("com.adsk.sketchbook", "failed", "INSUFFICIENT_STORAGE", undefined, undefined, "2026-11-21T18:02:00.000Z"),
        row("org.lichess.mobileV2", "failed", "IN_PROGRESS", undefined, undefined, "2026-11-21T18:01:00.000Z"),
        row("com.niksoftware.snapseed", "installed", null),
        row("com.tgc.sky.android", "installing", null, f.leo.deviceId, f.leo.profileId),
      ])
      .execute();
    const got = await listDashboardInstalls(f.t.db, f.mia.deviceId);
    expect(got.map(({ icon: _icon, ...i }) => i)).toEqual([
      { packageName: "org.krita", title: "Krita", state: "installing", failureReason: null, actor: null },
      { packageName: "com.adsk.sketchbook", title: "Sketchbook", state: "failed", failureReason: "INSUFFICIENT_STORAGE", actor: null },
      {
        packageName: "org.lichess.mobileV2",
        title: "lichess • Online Chess",
        state: "installing",
        failureReason: "IN_PROGRESS",
        actor: null,
      },
    ]);
    expect(got[0]!.icon).toBe("/resources/app-icon?p=org.krita&t=K");
  });
});
