import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../../server/harness.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as store from "./_app.play-store";
import * as application from "./_app.application";

const MIA = "DEMO-MIA-0001";

type Page = {
  paging: { showMore: number | null; showLess: boolean; shown: number; firstNew: number | null } | null;
  tab: string;
  label: string | null;
  items: { appId: string; title: string; installState?: string | null }[];
  modal: string | null;
  install: { title: string; draft: { enabled: boolean; minutes: number } } | null;
  noJsRefreshSeconds: number;
  phone: { brand: string | null; model: string | null };
  kid: { name: string };
  categories: unknown[];
};

/** /play-store through its loader and action, as a signed-in parent. */
describe("the play store page", () => {
  let h: Harness;
  let rh: RouteHarness;
  let token: string;
  let otherToken: string;
  let mia: { profileId: string; deviceId: string };
  beforeAll(async () => {
    rh = await startRouteHarness();
    ({ h, token, otherToken } = rh);
    mia = await h.kid(MIA);
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const call = (fn: unknown, url: string, tok = token, form?: Record<string, string>) => rh.call(fn, url, { token: tok, form });
  const page = async (qs: string) =>
    (await (await call(store.loader, `/play-store?profileId=${mia.profileId}&serialNumber=${MIA}${qs}`)).json()) as Page;
  const toastOf = (res: Response) => rh.toastOf(res);

  it("header with the kid's name and the phone's brand and model; Installed by default, Search Result with a filter and its label", async () => {
    const installed = await page("");
    expect(installed).toMatchObject({ tab: "installed", kid: { name: "Mia" }, label: null });
    expect(installed.phone.brand).toBeTruthy();
    // The 56 categories go with the category popup only (they are what it shows, three per row).
    expect(installed.categories).toEqual([]);
    const popup = await page("&modal=category");
    expect(popup.categories).toHaveLength(56);
    expect(popup.categories[0]).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    expect(installed.items.some((i) => i.appId === "com.kidsportal.kidsapp")).toBe(true);
    const text = await page("&playstoreText=khan");
    expect(text).toMatchObject({ tab: "search", label: "Show result for 'khan'" });
    expect(text.items[0]!.title).toBe("Khan Academy");
    const cat = await page("&filterCategory=EDUCATION&playstoreText=");
    expect(cat.label).toBe("Show result for Education");
    expect((await page("&ageFilter=AGE_RANGE1")).label).toBe("Show result for up to 5");
    expect((await page("&expertRatingFilter=EXPERT_RECOMMENDATION")).label).toBe("Show result for Expert Recommended");
  });

  it("search results come a page at a time: Show More and Show Less are in the URL, each page continues the last, a hand-made count is bounded", async () => {
    expect((await page("")).paging).toBeNull();
    const first = await page("&tab=search");
    expect(first.items).toHaveLength(20);
    expect(first.paging).toEqual({ showMore: 40, showLess: false, shown: 20, firstNew: null });
    const second = await page("&tab=search&shown=40");
    expect(second.items).toHaveLength(40);
    expect(second.items.slice(0, 20).map((i) => i.appId)).toEqual(first.items.map((i) => i.appId));
    expect(new Set(second.items.map((i) => i.appId)).size).toBe(40);
    expect(second.paging).toEqual({ showMore: 60, showLess: true, shown: 40, firstNew: 20 });
    // A count that is not a whole page is rounded up; nonsense is the first page; no more than the longest list.
    expect((await page("&tab=search&shown=33")).items).toHaveLength(40);
    expect((await page("&tab=search&shown=-5")).paging).toMatchObject({ shown: 20 });
    expect((await page("&tab=search&shown=1e9")).paging).toMatchObject({ shown: 20 });
    expect((await page("&tab=search&shown=100000")).paging).toMatchObject({ shown: 400 });
    // The last page: no Show More once every match is shown.
    const khan = await page("&playstoreText=khan");
    expect(khan.items.length).toBeLessThan(20);
    expect(khan.paging).toMatchObject({ showMore: null, showLess: false });
  });

  it("the install popup opens with the limit on at 60; an app the store does not have says so", async () => {
    const p = await page("&tab=search&modal=install&appId=org.khanacademy.android");
    expect(p.install).toEqual({ title: "Khan Academy", draft: { enabled: true, minutes: 60 } });
    const missing = await call(
      store.loader,
      `/play-store?profileId=${mia.profileId}&serialNumber=${MIA}&modal=install&appId=org.not.there`,
    );
    expect(missing.status).toBe(302);
    expect(await toastOf(missing)).toMatchObject({ type: "error", message: "Unable to fetch application detail from play store." });
  });

  it("without JavaScript the popup's switch and stepper keep a draft; Save and Install installs with the limit; the page refreshes itself while installing", async () => {
    const onPhone = h.tdb.db.selectFrom("profile_apps").select("package_name").where("device_id", "=", mia.deviceId);
    const { package_name: app } = await h.tdb.db
      .selectFrom("catalog_apps")
      .select("package_name")
      .where("free", "=", 1)
      .where("is_system_app", "=", 0)
      .where("package_name", "not in", onPhone)
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
    const base = `/play-store?profileId=${mia.profileId}&serialNumber=${MIA}&tab=search&modal=install&appId=${app}`;
    const step = await call(store.action, base, token, {
      intent: "install",
      packageName: app,
      enableDailyLimit: "on",
      minutes: "60",
      step: "-15",
    });
    expect(step.headers.get("Location")).toContain("limit=45");
    const zero = await call(store.action, base, token, {
      intent: "install",
      packageName: app,
      enableDailyLimit: "on",
      minutes: "0",
      do: "save",
    });
    expect(zero.status).toBe(400);
    const save = await call(store.action, base, token, {
      intent: "install",
      packageName: app,
      enableDailyLimit: "on",
      minutes: "30",
      do: "save",
    });
    expect(save.status).toBe(302);
    expect(await toastOf(save)).toMatchObject({ type: "success", message: expect.stringContaining("with a daily limit of 30 minutes") });
    expect(save.headers.get("Location")).toContain("tab=installed");
    expect(save.headers.get("Location")).not.toContain("modal=");
    const row = await h.tdb.db
      .selectFrom("profile_apps")
      .selectAll()
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", app)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      install_state: "installing",
      install_type: "FORCE_INSTALLED",
      enable_daily_limit: 1,
      daily_limit_minutes: 30,
    });
    const after = await page("&tab=installed");
    expect(after.items[0]).toMatchObject({ appId: app, installState: "installing" });
    expect(after.noJsRefreshSeconds).toBeGreaterThan(0);
    // /application shows it too, and refreshes itself without JavaScript while it installs.
    const detail = (await (
      await call(application.loader, `/application?package_name=${app}&profile_id=${mia.profileId}&serialNumber=${MIA}`)
    ).json()) as { install: { installState: string }; noJsRefreshSeconds: number };
    expect(detail.install.installState).toBe("installing");
    expect(detail.noJsRefreshSeconds).toBeGreaterThan(0);
  });

  it("the kids app and a system app are refused with the spec's messages", async () => {
    const kids = await call(store.action, `/play-store?profileId=${mia.profileId}&serialNumber=${MIA}`, token, {
      intent: "uninstall",
      packageName: "com.kidsportal.kidsapp",
    });
    expect(await toastOf(kids)).toMatchObject({ type: "error", message: "You don't have permission to uninstall this app" });
    const system = await h.tdb.db
      .selectFrom("catalog_apps")
      .select("package_name")
      .where("is_system_app", "=", 1)
      .executeTakeFirstOrThrow();
    const sys = await call(store.action, `/play-store?profileId=${mia.profileId}&serialNumber=${MIA}`, token, {
      intent: "uninstall",
      packageName: system.package_name,
    });
    expect(await toastOf(sys)).toMatchObject({ type: "error", message: "This is a system app and cannot be uninstalled." });
  });

  it("another family's kid and phone are 404 on the loader and the action", async () => {
    expect((await call(store.loader, `/play-store?profileId=${mia.profileId}&serialNumber=${MIA}`, otherToken)).status).toBe(404);
    expect(
      (
        await call(store.action, `/play-store?profileId=${mia.profileId}&serialNumber=${MIA}`, otherToken, {
          intent: "uninstall",
          packageName: "com.duolingo",
        })
      ).status,
    ).toBe(404);
  });
});
