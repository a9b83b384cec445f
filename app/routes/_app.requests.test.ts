import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "#core/ids.server";
import type { DisabledType } from "#db/schema";
import type { Harness } from "../../server/harness.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as layout from "./_app";
import * as requests from "./_app.requests";

const MIA = "DEMO-MIA-0001";

/** /requests through its loader and action as a signed-in parent (issue 14), and the side menu's count. */
describe("requests page", () => {
  let h: Harness;
  let rh: RouteHarness;
  let token: string;
  let otherToken: string;
  let mia: { profileId: string; deviceId: string };
  let app: { package_name: string; play_store_category: string };
  beforeAll(async () => {
    rh = await startRouteHarness();
    ({ h, token, otherToken } = rh);
    mia = await h.kid(MIA);
    app = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["package_name", "play_store_category"])
      .where("device_id", "=", mia.deviceId)
      .where("is_installed", "=", 1)
      .where("package_name", "!=", "com.kidsportal.kidsapp")
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const call = (fn: unknown, url: string, tok = token, form?: Record<string, string>) => rh.call(fn, url, { token: tok, form });
  const toastOf = (res: Response) => rh.toastOf(res);
  const pageUrl = (extra = "") => `/requests?profileId=${mia.profileId}&serialNumber=${MIA}${extra}`;
  const addRequest = async (type: "App Install" | "App Uninstall" | "Extend Time", pkg: string, minutes = 0) => {
    const id = newId();
    const ts = nowIso();
    await h.tdb.db
      .insertInto("app_requests")
      .values({
        id,
        profile_id: mia.profileId,
        device_id: mia.deviceId,
        package_name: pkg,
        request_type: type,
        extended_time: minutes,
        remarks: "Please?",
        message_id: id,
        answered_by: null,
        answered_at: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    return id;
  };
  const loaded = async (url: string) =>
    (await (await call(requests.loader, url)).json()) as {
      list: { id: string; label: string; title: string; button: { label: string }; openHref: string | null }[];
      modal: { kind: string; id: string } | null;
      draft: { enabled: boolean; minutes: number };
      warning: { text: string; link: string; href: string } | null;
      noLimitNote: string | null;
      confirm: { id: string; title: string } | null;
      extend: { current: number | null; extra: number; total: number | null } | null;
    };

  it("nothing pending: an empty list (the page says 'No data found.')", async () => {
    expect((await loaded(pageUrl())).list).toEqual([]);
  });

  it("lists Pending requests with the spec's labels; the side menu counts them", async () => {
    const install = await addRequest("App Install", "org.scratchjr.android");
    const extend = await addRequest("Extend Time", app.package_name, 30);
    const data = await loaded(pageUrl());
    expect(data.list.find((r) => r.id === install)).toMatchObject({ label: "App Installation Request", title: "ScratchJr" });
    expect(data.list.find((r) => r.id === extend)).toMatchObject({ label: "App Time Extend Request - 30 Minutes" });
    const menu = (await (await call(layout.loader, pageUrl())).json()) as { requestCounts: Record<string, number> };
    expect(menu.requestCounts[mia.profileId]).toBe(2);
  });

  it("the install popup opens from the URL with the limit on at 60; Save with 0 minutes is refused; Skip & Install installs with no limit", async () => {
    const id = await addRequest("App Install", "com.getepic.Epic");
    const data = await loaded(pageUrl(`&modal=install&id=${id}`));
    expect(data.modal).toEqual({ kind: "install", id });
    expect(data.draft).toEqual({ enabled: true, minutes: 60 });
    // Without JavaScript the switch answers with the draft in the URL.
    const off = await call(requests.action, pageUrl(`&modal=install&id=${id}`), token, {
      intent: "install",
      id,
      toggle: "off",
      enableDailyLimit: "on",
      minutes: "60",
    });
    expect(off.headers.get("Location")).toMatch(/limitOn=0/);
    const zero = await call(requests.action, pageUrl(`&modal=install&id=${id}`), token, {
      intent: "install",
      id,
      do: "save",
      enableDailyLimit: "on",
      minutes: "0",
    });
    expect(zero.status).toBe(400);
    // The Play Store's popup (components/store/InstallModal.tsx): Skip & Install is its `do=skip`.
    const skip = await call(requests.action, pageUrl(`&modal=install&id=${id}`), token, { intent: "install", id, do: "skip" });
    expect(await toastOf(skip)).toMatchObject({ type: "success" });
    expect(skip.headers.get("Location")).not.toMatch(/modal=/);
    const row = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["enable_daily_limit", "daily_limit_minutes"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", "com.getepic.Epic")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ enable_daily_limit: 0, daily_limit_minutes: 0 });
    // Save with a limit installs through the store with it, and the popup closes.
    const id2 = await addRequest("App Install", "org.scratchjr.android");
    const save = await call(requests.action, pageUrl(`&modal=install&id=${id2}&limitOn=1&limit=45`), token, {
      intent: "install",
      id: id2,
      do: "save",
      enableDailyLimit: "on",
      minutes: "45",
    });
    expect(await toastOf(save)).toMatchObject({ type: "success" });
    expect(save.headers.get("Location")).not.toMatch(/modal=|limitOn=/);
    const saved = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["enable_daily_limit", "daily_limit_minutes", "request_id"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", "org.scratchjr.android")
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({ enable_daily_limit: 1, daily_limit_minutes: 45, request_id: id2 });
  });

  it("install of an app the catalogue lacks: the spec's message", async () => {
    const id = await addRequest("App Install", "com.not.in.catalogue");
    const res = await call(requests.action, pageUrl(), token, { intent: "install", id, do: "save", enableDailyLimit: "on", minutes: "60" });
    expect(await toastOf(res)).toEqual({
      type: "error",
      message: "Playstore detail not found for this app, please try again after sometime.",
    });
  });

  it("extend with the category disabled: no toast, the popup shows the warning and a link to /category with appRequestPage=true", async () => {
    await h.caller(h.demo).categories.update({
      serialNumber: MIA,
      category: app.play_store_category,
      enableDailyLimit: false,
      dailyLimitTime: 0,
      isCategoryEnabled: false,
    });
    const id = await addRequest("Extend Time", app.package_name, 30);
    const res = await call(requests.action, pageUrl(`&modal=extend&id=${id}`), token, { intent: "extend", id, extendLimit: "30" });
    expect(res.headers.get("Set-Cookie") ?? "").not.toMatch(/toast/);
    const to = res.headers.get("Location")!;
    expect(to).toMatch(/modal=extend/);
    const data = await loaded(to);
    const categoryHref = `/category?${new URLSearchParams({ id: app.play_store_category, profileId: mia.profileId, serialNumber: MIA, appRequestPage: "true" })}`;
    expect(data.warning?.href).toBe(categoryHref);
    expect(data.warning?.text).toMatch(
      /^The .+ category is disabled on Mia's phone, so extra time would not let .+ run\. Enable the category first\.$/,
    );
    // The popup says so as it opens, before Approve.
    expect((await loaded(pageUrl(`&modal=extend&id=${id}`))).warning?.href).toBe(categoryHref);
    await h.caller(h.demo).categories.update({
      serialNumber: MIA,
      category: app.play_store_category,
      enableDailyLimit: false,
      dailyLimitTime: 0,
      isCategoryEnabled: true,
    });
    const ok = await call(requests.action, pageUrl(`&modal=extend&id=${id}`), token, { intent: "extend", id, extendLimit: "30" });
    expect(await toastOf(ok)).toMatchObject({ type: "success" });
  });

  it("a paid app's install request says 'Coming Soon': no Install button, no popup; Reject stays", async () => {
    const id = await addRequest("App Install", "com.tocaboca.tocakitchen2");
    const data = await loaded(pageUrl(`&modal=install&id=${id}`));
    expect(data.list.find((r) => r.id === id)).toMatchObject({ title: "Toca Kitchen 2", button: { label: "Coming Soon" }, openHref: null });
    expect(data.modal).toBeNull();
    expect(await toastOf(await call(requests.action, pageUrl(), token, { intent: "reject", id }))).toMatchObject({ type: "success" });
  });

  it("extend for an app with no limit says what the extra minutes mean; for an app turned off, the warning links to the app", async () => {
    const set = (values: {
      enable_daily_limit?: number;
      daily_limit_minutes?: number;
      is_app_disabled?: number;
      disabled_type?: DisabledType | null;
    }) =>
      h.tdb.db
        .updateTable("profile_apps")
        .set(values)
        .where("device_id", "=", mia.deviceId)
        .where("package_name", "=", app.package_name)
        .execute();
    const before = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["enable_daily_limit", "daily_limit_minutes", "is_app_disabled", "disabled_type"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", app.package_name)
      .executeTakeFirstOrThrow();
    try {
      await set({ enable_daily_limit: 0, daily_limit_minutes: 0 });
      const id = await addRequest("Extend Time", app.package_name, 30);
      const open = await loaded(pageUrl(`&modal=extend&id=${id}`));
      expect(open.extend).toMatchObject({ current: null, total: null });
      expect(open.noLimitNote).toMatch(
        /has no daily limit, so Mia can already use it .* The extra minutes change nothing now; they count only if you give .+ a daily limit today\.$/,
      );
      expect(open.warning).toBeNull();
      await set({ enable_daily_limit: 1, daily_limit_minutes: 30 });
      expect((await loaded(pageUrl(`&modal=extend&id=${id}`))).noLimitNote).toBeNull();
      await set({ enable_daily_limit: 0, daily_limit_minutes: 0, is_app_disabled: 1, disabled_type: "Manually" });
      const off = await loaded(pageUrl(`&modal=extend&id=${id}`));
      expect(off.noLimitNote).toBeNull();
      expect(off.warning?.text).toMatch(/ is disabled on Mia's phone, so extra time would not let it run\. Enable the app first\.$/);
      expect(off.warning?.href).toBe(
        `/application?${new URLSearchParams({ package_name: app.package_name, profile_id: mia.profileId, serialNumber: MIA, tab: "usage" })}`,
      );
      const res = await call(requests.action, pageUrl(`&modal=extend&id=${id}`), token, { intent: "extend", id, extendLimit: "30" });
      expect(res.headers.get("Set-Cookie") ?? "").not.toMatch(/toast/);
      expect(res.headers.get("Location")).toMatch(/modal=extend/);
    } finally {
      await set(before);
    }
  });

  it("UnInstall asks first: an unconfirmed post goes to the question and answers nothing", async () => {
    const id = await addRequest("App Uninstall", app.package_name);
    const row = (await loaded(pageUrl())).list.find((r) => r.id === id)!;
    expect(new URL(row.openHref!, "http://x").searchParams.get("confirm")).toBe("uninstall");
    const asked = await call(requests.action, pageUrl(), token, { intent: "uninstall", id });
    expect(asked.headers.get("Set-Cookie") ?? "").not.toMatch(/toast/);
    const question = asked.headers.get("Location")!;
    expect(new URL(question, "http://x").searchParams.get("confirm")).toBe("uninstall");
    expect((await loaded(question)).confirm).toMatchObject({ id });
    expect((await h.tdb.db.selectFrom("app_requests").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe(
      "Pending",
    );
    // Reject it here: approving would remove the app the other tests use.
    expect(await toastOf(await call(requests.action, question, token, { intent: "reject", id }))).toMatchObject({ type: "success" });
  });

  it("reject, then a second answer: 'already answered'; another family's request id and kid are refused", async () => {
    const id = await addRequest("App Uninstall", app.package_name);
    expect(await toastOf(await call(requests.action, pageUrl(), token, { intent: "reject", id }))).toMatchObject({ type: "success" });
    expect(await toastOf(await call(requests.action, pageUrl(), token, { intent: "uninstall", id, confirmed: "yes" }))).toEqual({
      type: "error",
      message: "This request was already answered.",
    });
    const fresh = await addRequest("App Uninstall", app.package_name);
    expect((await call(requests.loader, pageUrl(), otherToken)).status).toBe(404);
    expect((await call(requests.action, pageUrl(), otherToken, { intent: "reject", id: fresh })).status).toBe(404);
    const zoe = `/requests?profileId=${h.other.profileId}&serialNumber=${h.other.serialNumber}`;
    expect((await call(requests.action, zoe, otherToken, { intent: "reject", id: fresh })).status).toBe(404);
    expect((await h.tdb.db.selectFrom("app_requests").select("status").where("id", "=", fresh).executeTakeFirstOrThrow()).status).toBe(
      "Pending",
    );
  });
  it("many pending requests are paged 20 at a time (issue 52): one bounded page, links to the next and back", async () => {
    const pending = (await loaded(pageUrl())).list.length;
    for (let i = 0; i < 45; i++) await addRequest("App Install", `org.flood.app${i}`);
    const total = pending + 45;
    const paged = async (extra: string) =>
      (await (await call(requests.loader, pageUrl(extra))).json()) as {
        list: { id: string }[];
        page: number;
        newerHref: string | null;
        olderHref: string | null;
      };
    const first = await paged("");
    expect(first.list).toHaveLength(20);
    expect(first.newerHref).toBeNull();
    expect(first.olderHref).toBe(`${pageUrl("&page=2")}#requests-title`);
    const last = Math.ceil(total / 20);
    const end = await paged(`&page=${last}`);
    expect(end.list).toHaveLength(total - 20 * (last - 1));
    expect(end.olderHref).toBeNull();
    expect(end.newerHref).toBe(`${pageUrl(last - 1 === 1 ? "" : `&page=${last - 1}`)}#requests-title`);
    // Past the end (its last request answered meanwhile): the last page.
    expect((await paged("&page=99")).page).toBe(last);
    const ids = new Set<string>();
    for (let p = 1; p <= last; p++) for (const r of (await paged(`&page=${p}`)).list) ids.add(r.id);
    expect(ids.size).toBe(total);
  });
});
