import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitDay } from "#db/queries/usage-today";
import { rateApp } from "#device-service/simulator/ratings";
import type { Harness } from "../../server/harness.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as application from "./_app.application";
import * as apps from "./_app.apps";
import * as category from "./_app.category";

const MIA = "DEMO-MIA-0001";

/** /application, /category and /apps through their loaders and actions, as a signed-in parent. */
describe("app, category and apps pages", () => {
  let h: Harness;
  let rh: RouteHarness;
  let token: string;
  let otherToken: string;
  let mia: { profileId: string; deviceId: string };
  let pkg: string;
  let cat: string;
  beforeAll(async () => {
    rh = await startRouteHarness();
    ({ h, token, otherToken } = rh);
    mia = await h.kid(MIA);
    const row = await h.tdb.db
      .selectFrom("profile_apps as pa")
      .innerJoin("catalog_apps as c", "c.package_name", "pa.package_name")
      .select(["pa.package_name", "pa.play_store_category"])
      .where("pa.device_id", "=", mia.deviceId)
      .where("pa.is_app_disabled", "=", 0)
      .orderBy("pa.package_name")
      .limit(1)
      .executeTakeFirstOrThrow();
    pkg = row.package_name;
    cat = row.play_store_category;
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const call = (fn: unknown, url: string, tok = token, form?: Record<string, string>) => rh.call(fn, url, { token: tok, form });
  const toastOf = (res: Response) => rh.toastOf(res);
  const appUrl = (extra = "", who = mia.profileId, p = pkg) =>
    `/application?package_name=${p}&profile_id=${who}&serialNumber=${MIA}${extra}`;
  const catUrl = (extra = "", id = cat) => `/category?id=${id}&profileId=${mia.profileId}&serialNumber=${MIA}${extra}`;

  it("another family's kid, phone, app and category are 404 on every loader and action", async () => {
    const other = h.other;
    for (const [fn, url] of [
      [application.loader, appUrl()],
      [application.action, appUrl()],
      [category.loader, catUrl()],
      [category.action, catUrl()],
      [apps.loader, `/apps?profileId=${mia.profileId}&serialNumber=${MIA}`],
    ] as const) {
      const res = await call(
        fn as never,
        url,
        otherToken,
        fn === application.action || fn === category.action ? { intent: "enabled", enabled: "off" } : undefined,
      );
      expect(res.status, url).toBe(404);
    }
    // The demo parent with the other family's phone, an app on nobody's phone, an unknown category.
    expect(
      (
        await call(
          application.loader as never,
          `/application?package_name=${pkg}&profile_id=${mia.profileId}&serialNumber=${other.serialNumber}`,
        )
      ).status,
    ).toBe(404);
    expect((await call(application.loader as never, appUrl("", mia.profileId, "org.school.homework2"))).status).toBe(404);
    expect((await call(category.loader as never, catUrl("", "NOT_A_CATEGORY"))).status).toBe(404);
    const row = await h.tdb.db
      .selectFrom("profile_apps")
      .select("is_app_disabled")
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", pkg)
      .executeTakeFirstOrThrow();
    expect(row.is_app_disabled).toBe(0);
  });

  it("/application: Info by default, Usage in the URL with the chart and the delivery state; back to the store with its filters", async () => {
    const info = (await (await call(application.loader as never, appUrl("&playstoreText=draw&ageFilter=AGE_RANGE2"))).json()) as Record<
      string,
      unknown
    >;
    expect(info).toMatchObject({ tab: "info", packageName: pkg, usage: null, modal: null });
    expect(info.backHref).toBe(`/play-store?profileId=${mia.profileId}&serialNumber=${MIA}&playstoreText=draw&ageFilter=AGE_RANGE2`);
    const usage = (await (await call(application.loader as never, appUrl("&tab=usage&filter=week"))).json()) as {
      usage: { period: { filter: string }; chartSvg: { wide: string }; ack: string };
    };
    expect(usage.usage.period.filter).toBe("week");
    expect(usage.usage.chartSvg.wide).toContain("<svg");
    expect(usage.usage.ack).toBe("acknowledged");
    expect(((await (await call(application.loader as never, appUrl("&modal=rating"))).json()) as { modal: string }).modal).toBe("rating");
  });

  it("/application?showRating=true (the dashboard's 'Rate … new apps' panel): without JavaScript a refresh opens the rating form", async () => {
    const tapped = (await (await call(application.loader as never, appUrl("&showRating=true"))).json()) as Record<string, unknown>;
    expect(tapped).toMatchObject({ showRating: true, modal: null, noJsRefreshSeconds: 3, noJsRefreshTo: appUrl("&modal=rating") });
    const open = (await (await call(application.loader as never, appUrl("&modal=rating"))).json()) as Record<string, unknown>;
    expect(open).toMatchObject({ showRating: false, modal: "rating", noJsRefreshSeconds: 0 });
    expect(open.noJsRefreshTo).toBeUndefined();
  });

  it("/application: limit drafts without JavaScript, the spec's messages, save through the device service (orange until the phone confirms)", async () => {
    const toggled = await call(application.action as never, appUrl("&tab=usage"), token, { intent: "limit", toggle: "on" });
    expect(toggled.headers.get("Location")).toContain("limitOn=1&limit=15");
    const refused = await call(application.action as never, appUrl("&tab=usage"), token, {
      intent: "limit",
      enableDailyLimit: "on",
      minutes: "20",
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "Please enter time multiple of 15." });
    const blank = await call(application.action as never, appUrl("&tab=usage"), token, {
      intent: "limit",
      enableDailyLimit: "on",
      minutes: "",
    });
    expect(await blank.json()).toMatchObject({ error: "Please enter time." });
    const saved = await call(application.action as never, appUrl("&tab=usage&limitOn=1&limit=30"), token, {
      intent: "limit",
      enableDailyLimit: "on",
      minutes: "30",
    });
    expect(saved.headers.get("Location")).toBe(appUrl("&tab=usage"));
    expect(await toastOf(saved)).toMatchObject({ type: "success", message: expect.stringContaining("daily limit of 30 minutes") });
    const after = (await (await call(application.loader as never, appUrl("&tab=usage"))).json()) as {
      detail: { dailyLimitTime: number };
      usage: { ack: string };
    };
    expect(after).toMatchObject({ detail: { dailyLimitTime: 30 }, usage: { ack: "sent" } });
  });

  it("typos never save 'no limit' or 24 hours: blank, '-15', '1e5' and huge values get the spec's messages on /application and /category", async () => {
    const limitOf = async () =>
      ((await (await call(application.loader as never, appUrl("&tab=usage"))).json()) as { detail: { dailyLimitTime: number } }).detail
        .dailyLimitTime;
    const before = await limitOf();
    for (const [minutes, error] of [
      ["", "Please enter time."],
      ["-15", "Please enter time in positive."],
      ["1e5", "Please enter whole minutes from 0 to 1,440."],
      ["100000", "Please enter whole minutes from 0 to 1,440."],
    ] as const) {
      for (const [fn, url] of [
        [application.action, appUrl("&tab=usage")],
        [category.action, catUrl()],
      ] as const) {
        const res = await call(fn as never, url, token, { intent: "limit", enableDailyLimit: "on", minutes });
        expect(res.status, `${url} ${minutes}`).toBe(400);
        expect(await res.json(), `${url} ${minutes}`).toMatchObject({ intent: "limit", error });
      }
    }
    expect(await limitOf()).toBe(before);
  });

  it("/application: enabling an app that used up its limit is refused with the spec's message; a rating is saved", async () => {
    await call(application.action as never, appUrl(), token, { intent: "enabled", enabled: "off" });
    await h.tdb.db
      .insertInto("app_usage_daily")
      .values({ device_id: mia.deviceId, package_name: pkg, day: limitDay(), minutes: 30 })
      .onConflict((oc) => oc.columns(["device_id", "day", "package_name"]).doUpdateSet({ minutes: 30 }))
      .execute();
    const refused = await call(application.action as never, appUrl(), token, { intent: "enabled", enabled: "on" });
    expect(await toastOf(refused)).toEqual({ type: "error", message: "Please increase daily limit time to enable this category." });
    const rated = await call(application.action as never, appUrl("&modal=rating&showRating=true"), token, {
      intent: "rating",
      isEducational: "4",
      isPositive: "5",
      isRecommend: "on",
      review: "Lovely",
    });
    expect(rated.headers.get("Location")).toBe(appUrl());
    const info = (await (await call(application.loader as never, appUrl())).json()) as {
      parentRatings: { lastFiveReviews: { review: string }[] };
    };
    expect(info.parentRatings.lastFiveReviews[0].review).toBe("Lovely");
  });

  it("/application Info: a rating Mia sends from the kids app shows under the kids' ratings", async () => {
    await rateApp(await h.phone(MIA), pkg, 5, { review: "Best app for homework" });
    const info = (await (await call(application.loader as never, appUrl())).json()) as {
      kidRatings: { totalKidsRating: number; lastFiveReviews: { name: string; kidsRating: number; review: string }[] };
    };
    expect(info.kidRatings.totalKidsRating).toBeGreaterThan(0);
    expect(info.kidRatings.lastFiveReviews[0]).toMatchObject({ name: "Mia", kidsRating: 5, review: "Best app for homework" });
  });

  it("/category: 'Please enter time in positive.', a save, and back to the requests after a save from there", async () => {
    const negative = await call(category.action as never, catUrl(), token, { intent: "limit", enableDailyLimit: "on", minutes: "-15" });
    expect(await negative.json()).toMatchObject({ error: "Please enter time in positive." });
    const saved = await call(category.action as never, catUrl("&appRequestPage=true"), token, {
      intent: "limit",
      enableDailyLimit: "on",
      minutes: "90",
    });
    expect(saved.headers.get("Location")).toBe(`/requests?profileId=${mia.profileId}&serialNumber=${MIA}`);
    const page = (await (await call(category.loader as never, catUrl("&filter=week"))).json()) as {
      category: { dailyLimitTime: number; apps: { packageName: string }[] };
      ack: string;
    };
    expect(page.category.dailyLimitTime).toBe(90);
    expect(page.category.apps.map((a) => a.packageName)).toContain(pkg);
    expect(page.ack).toBe("sent");
  });

  it("/apps: installed apps, searchable and filterable by category", async () => {
    const all = (await (await call(apps.loader as never, `/apps?profileId=${mia.profileId}&serialNumber=${MIA}`)).json()) as {
      apps: { packageName: string; category: string }[];
    };
    expect(all.apps.map((a) => a.packageName)).toContain(pkg);
    const filtered = (await (
      await call(apps.loader as never, `/apps?profileId=${mia.profileId}&serialNumber=${MIA}&category=${cat}`)
    ).json()) as typeof all;
    expect(filtered.apps.every((a) => a.category === cat)).toBe(true);
  });
});
