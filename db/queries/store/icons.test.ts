import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../index.testing";
import { useDemoFamily } from "../dashboard/dashboard.testing";
import { searchCatalog } from "./catalog";
import { listStoreInstalled } from "./installed";

/** CATALOG_ICON_BASE_URL as the loaders hand it over (services.env). */
const icons = { iconBase: "https://icons.example/play" };

/** Issue 13 item 2: a configured real icon base is used when present (empty → icons drawn locally). */
describe.each(DIALECTS)("store icons with CATALOG_ICON_BASE_URL on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("search results and the Installed tab point at <base>/<package>.png", async () => {
    const found = await searchCatalog(f.t.db, f.mia.deviceId, { kind: "text", text: "khan academy" }, icons);
    expect(found[0]!.icon).toBe("https://icons.example/play/org.khanacademy.android.png");
    const installed = await listStoreInstalled(f.t.db, f.mia.deviceId, icons);
    const fromCatalog = installed.filter((i) => !i.appId.startsWith("org.school.") && i.appId !== "com.kidsportal.kidsapp");
    expect(fromCatalog.length).toBeGreaterThan(0);
    for (const i of fromCatalog) expect(i.icon).toBe(`https://icons.example/play/${i.appId}.png`);
    // Apps outside the catalogue have no store icon: theirs is drawn (linked to the icon route).
    for (const i of installed.filter((i) => i.appId.startsWith("org.school.")))
      expect(i.icon).toMatch(/^\/resources\/app-icon\?p=org\.school\.[a-z0-9]+&t=/);
  });
});
