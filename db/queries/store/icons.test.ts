import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../testing";
import { useDemoFamily } from "../dashboard/testing";
import { searchCatalog } from "./catalog";
import { listStoreInstalled } from "./installed";

// Read once by core/env.server's env(); this file runs in its own module scope, so setting it first is enough.
process.env.CATALOG_ICON_BASE_URL = "https://icons.example/play";

/** Issue 13 item 2: a configured real icon base is used when present (empty → icons drawn locally). */
describe.each(DIALECTS)("store icons with CATALOG_ICON_BASE_URL on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("search results and the Installed tab point at <base>/<package>.png", async () => {
    const found = await searchCatalog(f.t.db, f.mia.deviceId, { kind: "text", text: "khan academy" });
    expect(found[0]!.icon).toBe("https://icons.example/play/org.khanacademy.android.png");
    const installed = await listStoreInstalled(f.t.db, f.mia.deviceId);
    const fromCatalog = installed.filter((i) => !i.appId.startsWith("org.school.") && i.appId !== "com.kidsportal.kidsapp");
    expect(fromCatalog.length).toBeGreaterThan(0);
    for (const i of fromCatalog) expect(i.icon).toBe(`https://icons.example/play/${i.appId}.png`);
  });
});
