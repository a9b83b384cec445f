import { z } from "zod";
import { recordId, serialNumber } from "#core/values";
import { getCategoryDetail } from "#db/queries/categories";
import { resolvePeriod } from "~/rules/periods";
import { limitProgress } from "~/rules/minutes";
import { formatMinutes } from "#core/duration";
import { getItemAck } from "#device-service/ack";
import { getAppDetail, getAppUsageChart, listKidApps } from "#db/queries/apps";
import { getKidRatings, getParentRatings, setParentRecommendation } from "#db/queries/ratings";
import { overallRating } from "#db/queries/store/catalog";
import { appTitle } from "#core/store";
import { appIconHref } from "#core/app-icon";
import { packageName } from "#core/values";
import { storePage } from "~/components/store/page.server";
import { SEARCH_TEXT_MAX, STORE_RESULTS_MAX, STORE_RESULTS_PAGE } from "~/rules/store";
import { AGE_RANGES, EXPERT_FILTERS } from "#core/store";
import { body, defineCall, query, queryInt, type CallContext } from "../define";
import { ApiError } from "../envelope";
import { accessibleDevice, kidDevice, periodQuery } from "./device";

const APPS = "Apps";
const USAGE = "Usage";

const categoryId = z.string().trim().min(1).max(64);
const chartData = z.object({
  slots: z.array(z.string()),
  categories: z.array(z.object({ key: z.string(), name: z.string() })),
  rows: z.array(z.object({ slot: z.string(), values: z.record(z.number()) })),
});

export const categoryDetail = defineCall({
  method: "get",
  path: "/application/category-detail",
  tag: APPS,
  summary: "A category on the kid's phone: its limit, whether it is allowed, its apps and their screen time",
  note: "id is the store category's id (most-used-category's data[].category); the kid is the phone's (profileId, when given, must be it). The period parameters are the usage calls'; apps' timeInMinute and usedTime are of that period, usedToday of today (the limit's day).",
  auth: "parent",
  changes: false,
  input: query({
    id: categoryId,
    serialNumber,
    profileId: recordId.optional(),
    currentDate: periodQuery.currentDate,
    filterType: periodQuery.filterType,
    weekType: periodQuery.weekType,
  }),
  reply: z.object({
    data: z.object({
      category: z.string(),
      name: z.string(),
      enableDailyLimit: z.boolean(),
      dailyLimitTime: z.number().describe("Minutes"),
      isCategoryEnabled: z.boolean(),
      usedTime: z.number().describe("Minutes in the period"),
      usedToday: z.number().describe("Minutes today"),
      fcmDetail: z.object({ isDeviceAcknowledge: z.boolean().describe("The phone has applied the category's newest setting.") }),
      apps: z.array(
        z.object({
          packageName: z.string(),
          title: z.string(),
          icon: z.string().nullable(),
          timeInMinute: z.number(),
          timeInMinuteFormatted: z.string(),
          enableDailyLimit: z.boolean(),
          dailyLimit: z.number().describe("Minutes a day"),
          dailyLimitFormatted: z.string(),
          progressBarPercentage: z.number().describe("Screen time in the period against the limit over the period's days, 0 to 100"),
          is_app_disabled: z.boolean(),
        }),
      ),
    }),
  }),
  errors: { 404: "Category not found (or not this parent's phone)." },
  handle: async (ctx, input) => {
    // The spec names the phone only: its kid, under the same access rule, then the page's guard on both.
    const found = await accessibleDevice(ctx, input.serialNumber);
    const { kid, device } = await kidDevice(ctx, input.profileId ?? found.device.profile_id, input.serialNumber);
    const period = resolvePeriod({ filter: input.filterType, date: input.currentDate, week: input.weekType }, new Date());
    const [detail, ack] = await Promise.all([
      getCategoryDetail(ctx.services.db, kid.id, device.id, input.id, period),
      getItemAck(ctx.services.db, device.id, { category: input.id }),
    ]);
    if (!detail) throw new ApiError(404, "Category not found.");
    const { chart: _chart, apps, ...data } = detail;
    return {
      respones_msg: "Category detail.",
      data: {
        ...data,
        fcmDetail: { isDeviceAcknowledge: ack === "acknowledged" },
        apps: apps.map(({ isAppDisabled, ...a }) => ({
          ...a,
          timeInMinuteFormatted: formatMinutes(a.timeInMinute),
          dailyLimitFormatted: formatMinutes(a.dailyLimit),
          // The page's bar: the period's screen time against the limit over the period's days.
          progressBarPercentage: limitProgress(a.timeInMinute, a.enableDailyLimit ? a.dailyLimit * period.days : 0).percent,
          is_app_disabled: isAppDisabled,
        })),
      },
    };
  },
});

export const categoryDetailChart = defineCall({
  method: "get",
  path: "/application/category-detail-chart",
  tag: USAGE,
  summary: "One category's screen time of a period, stacked by app (hours of a day, or days of a week)",
  note: "data is the chart's data (the /category page's chart): slots, the top apps as series (the rest as 'Other apps', key __rest) and per slot the minutes of each; deviceDetail the phone.",
  auth: "parent",
  changes: false,
  input: query({ ...periodQuery, playStoreCategory: categoryId }),
  reply: z.object({
    data: chartData,
    deviceDetail: z.object({ _id: z.string(), serialNumber: z.string() }),
    totalUsedTime: z.number().describe("Minutes in the period"),
  }),
  errors: { 404: "Category not found (or not this parent's kid)." },
  handle: async (ctx, input) => {
    const { kid, device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    const period = resolvePeriod({ filter: input.filterType, date: input.currentDate, week: input.weekType }, new Date());
    const detail = await getCategoryDetail(ctx.services.db, kid.id, device.id, input.playStoreCategory, period);
    if (!detail) throw new ApiError(404, "Category not found.");
    return {
      respones_msg: detail.usedTime ? "Category chart." : "No data to show",
      data: detail.chart,
      deviceDetail: { _id: device.id, serialNumber: device.serial_number },
      totalUsedTime: detail.usedTime,
    };
  },
});

const review = z.record(z.unknown());
const kidsRating = z.object({
  avgKidsRating: z.number().nullable(),
  totalKidsRating: z.number(),
  positive: z.number(),
  natural: z.number(),
  negative: z.number(),
  positivePercent: z.number(),
  naturalPercent: z.number(),
  negativePercent: z.number(),
  lastFiveReviews: z.array(review),
});
const parentRating = z.object({
  parentsRatingAvg: z.number().nullable(),
  totalParentsRating: z.number(),
  educational: z.number(),
  positive: z.number(),
  suitableContent: z.number(),
  easyToUnderstand: z.number(),
  upVoting: z.number(),
  downVoting: z.number(),
  lastFiveReviews: z.array(review),
});

export const appDetail = defineCall({
  method: "get",
  path: "/application/detail",
  tag: APPS,
  summary: "One app on the kid's phone (or in the store): its state, limit, ratings and screen time in a period",
  note: "The spec does not show the path: GET application/detail. _id is the app's row on the phone (null when it is not on it; application_id of device-profile/application/update/status). dailyLimitTime and dailyLimitTimeNumber are minutes, usedLimitNumber today's minutes and usedLimit the same as the pages write it; totalUsedTime the period's minutes. overallRating: kids' and parents' stars weighted by their counts (the store's).",
  auth: "parent",
  changes: false,
  input: query({
    profile_id: recordId,
    package_name: packageName,
    serialNumber,
    currentDate: periodQuery.currentDate,
    filterType: periodQuery.filterType,
    weekType: periodQuery.weekType,
  }),
  reply: z.object({
    data: z.object({
      _id: z.string().nullable(),
      package_name: z.string(),
      app_icon: z.string(),
      display_text: z.string(),
      appExist: z.boolean(),
      isAppInstalled: z.boolean(),
      isSystemApp: z.boolean(),
      is_app_disabled: z.boolean(),
      appEnabledDisabledType: z.string().nullable(),
      enableDailyLimit: z.boolean(),
      dailyLimitTime: z.number(),
      dailyLimitTimeNumber: z.number(),
      usedLimit: z.string(),
      usedLimitNumber: z.number(),
      fcmDetail: z.object({ isDeviceAcknowledge: z.boolean() }),
      expertRating: z.enum(["EXPERT_RECOMMENDATION", "PARENTAL_SUPERVISION", "16+"]).nullable(),
      expertRatingComment: z.string().nullable(),
      installationFailureReason: z.string().nullable(),
      category: z.string(),
      categoryName: z.string(),
    }),
    kidsRating,
    parentRating,
    overallRating: z.number().nullable(),
    totalUsedTime: z.number().describe("Minutes in the period"),
  }),
  errors: { 404: "App not found (or not this parent's kid)." },
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profile_id, input.serialNumber);
    const db = ctx.services.db;
    const pkg = input.package_name;
    const period = resolvePeriod({ filter: input.filterType, date: input.currentDate, week: input.weekType }, new Date());
    const [detail, chart, ack, kids, parents] = await Promise.all([
      getAppDetail(db, device.id, pkg),
      getAppUsageChart(db, device.id, pkg, period),
      getItemAck(db, device.id, { app: pkg }),
      getKidRatings(db, pkg),
      getParentRatings(db, pkg),
    ]);
    if (!detail) throw new ApiError(404, "App not found.");
    const title = appTitle(detail.catalog?.title, pkg);
    return {
      respones_msg: "Application detail.",
      data: {
        _id: detail.id,
        package_name: pkg,
        app_icon: appIconHref(pkg, title, detail.catalog?.icon, ctx.services.env.CATALOG_ICON_BASE_URL),
        display_text: title,
        appExist: detail.appExist,
        isAppInstalled: detail.isAppInstalled,
        isSystemApp: detail.isSystemApp,
        is_app_disabled: detail.isAppDisabled,
        appEnabledDisabledType: detail.appEnabledDisabledType,
        enableDailyLimit: detail.enableDailyLimit,
        dailyLimitTime: detail.dailyLimitTime,
        dailyLimitTimeNumber: detail.dailyLimitTime,
        usedLimit: formatMinutes(detail.usedToday),
        usedLimitNumber: detail.usedToday,
        fcmDetail: { isDeviceAcknowledge: ack === "acknowledged" },
        expertRating: detail.catalog?.expert_rating ?? null,
        expertRatingComment: detail.catalog?.expert_rating_comment ?? null,
        installationFailureReason: detail.installationFailureReason,
        category: detail.category,
        categoryName: detail.categoryName,
      },
      kidsRating: kids,
      parentRating: parents,
      overallRating: overallRating(
        kids.avgKidsRating === null ? undefined : { avg: kids.avgKidsRating, n: kids.totalKidsRating },
        parents.parentsRatingAvg === null ? undefined : { avg: parents.parentsRatingAvg, n: parents.totalParentsRating },
      ),
      totalUsedTime: chart.total,
    };
  },
});

const star = z.number().int().min(0).max(5);

export const parentRatingCall = defineCall({
  method: "post",
  path: "/application/parent/rating",
  tag: APPS,
  summary: "The parent's rating of an app for a kid (one per parent, kid and app: a second replaces the first)",
  note: "The spec's parent rating submission: stars 0 to 5; isEasyToStop is never set by the interface and is not taken; expert fields are operators' (refused).",
  auth: "parent",
  changes: true,
  input: body({
    profileId: recordId,
    packageName,
    isEducational: star,
    isPositive: star,
    isSuitableContent: star,
    isEasyToUnderstand: star,
    isRecommend: z.boolean().default(false),
    review: z.string().max(1000).optional(),
  }),
  reply: z.object({}),
  errors: { 404: "App not found (or not this parent's kid)." },
  handle: async (ctx, input) => {
    const r = await ctx.device().apps.rate({ ...input, review: input.review?.trim() || undefined });
    return { respones_msg: r.respones_msg };
  },
});

const STORE = "Play store";

const storeQuery = query({
  profileId: recordId,
  serialNumber,
  playstoreText: z.string().max(SEARCH_TEXT_MAX).optional(),
  ageFilter: z.enum(AGE_RANGES).optional(),
  filterCategory: z
    .string()
    .regex(/^[A-Z_]{2,40}$/, "filterCategory must be a store category's id (application/most-used-category's category).")
    .optional(),
  expertRatingFilter: z.enum(EXPERT_FILTERS).optional(),
  shown: queryInt(1, STORE_RESULTS_MAX).optional(),
});

const storeReply = z.object({
  data: z.array(
    z.object({
      appId: z.string().describe("The package name"),
      title: z.string(),
      icon: z.string(),
      expertRating: z.enum(["EXPERT_RECOMMENDATION", "PARENTAL_SUPERVISION", "16+"]).nullable(),
      scoreText: z.string().nullable(),
      kidsRating: z.number().nullable(),
      overallRating: z.number().nullable(),
      price: z.number(),
      free: z.boolean(),
      isAppInstalled: z.boolean(),
      isSystemApp: z.boolean(),
      installState: z.string().nullable().describe("On the phone: installing, installed, failed … (null: not on it)"),
      failureReason: z.string().nullable(),
      enableDailyLimit: z.boolean().nullable(),
      dailyLimitTime: z.number().nullable(),
      changedBy: z.string().nullable().describe("Who installed it or last changed its limit from the portal ('you', or a delegate)"),
    }),
  ),
  tab: z.enum(["installed", "search"]).describe("Which list: the phone's apps installed from the store, or the catalogue's matches"),
  label: z.string().nullable().describe("The page's label of a filtered list ('Show result for …'); null: no filter"),
  showMore: z.number().nullable().describe("Search results: the shown value that lists one page more (null: nothing more)"),
  deviceDetail: z.object({
    _id: z.string(),
    serialNumber: z.string(),
    brand: z.string().nullable(),
    model: z.string().nullable(),
    profile_name: z.string(),
  }),
});

/** The /play-store page's list (storePage, from the same query parameters), for one tab. */
async function storeList(ctx: CallContext, input: z.output<typeof storeQuery>, tab: "page" | "search") {
  const { parent, device, kid } = await kidDevice(ctx, input.profileId, input.serialNumber);
  const url = new URL("http://api.invalid/play-store");
  for (const k of ["playstoreText", "ageFilter", "filterCategory", "expertRatingFilter"] as const)
    if (input[k]) url.searchParams.set(k, input[k]);
  if (input.shown) url.searchParams.set("shown", String(input.shown));
  if (tab === "search") url.searchParams.set("tab", "search");
  const page = await storePage(ctx.services.db, url, device, kid, parent.id, { iconBase: ctx.services.env.CATALOG_ICON_BASE_URL });
  return {
    respones_msg: page.items.length ? "Play store." : "No data found.",
    data: page.items.map((a) => ({
      appId: a.appId,
      title: a.title,
      icon: a.icon,
      expertRating: a.expertRating,
      scoreText: a.scoreText,
      kidsRating: a.kidsRating ?? null,
      overallRating: a.overallRating ?? null,
      price: a.price,
      free: a.free,
      isAppInstalled: a.isAppInstalled,
      isSystemApp: a.isSystemApp,
      installState: a.installState ?? null,
      failureReason: a.failureReason ?? null,
      enableDailyLimit: a.enableDailyLimit ?? null,
      dailyLimitTime: a.dailyLimitTime ?? null,
      changedBy: a.changedBy ?? null,
    })),
    tab: page.tab,
    label: page.label,
    showMore: page.paging?.showMore ?? null,
    deviceDetail: { _id: device.id, serialNumber: device.serial_number, brand: device.brand, model: device.model, profile_name: kid.name },
  };
}

export const playstore = defineCall({
  method: "get",
  path: "/application/playstore",
  tag: STORE,
  summary: "The play store as the page opens it: the phone's installed apps, or with a filter its results",
  note: `One filter at a time (the page's: the text first, then age, category, expert rating). No filter: the apps installed from the store (the page's Installed tab); a filter: the catalogue's matches, ${STORE_RESULTS_PAGE} at first; shown asks for more (a multiple of ${STORE_RESULTS_PAGE}, up to ${STORE_RESULTS_MAX}).`,
  auth: "parent",
  changes: false,
  input: storeQuery,
  reply: storeReply,
  handle: (ctx, input) => storeList(ctx, input, "page"),
});

export const playstoreSearch = defineCall({
  method: "get",
  path: "/application/playstore/search",
  tag: STORE,
  summary: "The play store's search results (the page's Search Result tab)",
  note: `Always the catalogue's matches of the filter (no filter: the whole catalogue, best known first), ${STORE_RESULTS_PAGE} at first; shown asks for more.`,
  auth: "parent",
  changes: false,
  input: storeQuery,
  reply: storeReply,
  handle: (ctx, input) => storeList(ctx, input, "search"),
});

export const profileApplicationList = defineCall({
  method: "get",
  path: "/device-profile/application/list",
  tag: APPS,
  summary: "The apps installed on the kid's phone, most used today first (the Apps page's list)",
  note: "The spec does not show the path: GET device-profile/application/list. install_type FORCE_INSTALLED is the only value (every app on the phone is in its policy; apps still on their way or failed are the play store's Installed tab, application/playstore); q (title or package) and category narrow the list as the Apps page's search does. _id is application_id of device-profile/application/update/status.",
  auth: "parent",
  changes: false,
  input: query({
    profile_id: recordId,
    serialNumber,
    install_type: z.literal("FORCE_INSTALLED").optional(),
    q: z.string().max(100).optional(),
    category: z.string().max(64).optional(),
  }),
  reply: z.object({
    data: z.array(
      z.object({
        _id: z.string(),
        package_name: z.string(),
        title: z.string(),
        icon: z.string().nullable(),
        category: z.string(),
        categoryName: z.string(),
        enableDailyLimit: z.boolean(),
        dailyLimitTime: z.number().describe("Minutes a day"),
        is_app_disabled: z.boolean(),
        appEnabledDisabledType: z.string().nullable(),
        usedToday: z.number().describe("Minutes"),
        progressBarPercentage: z.number().describe("Today's screen time against the daily limit, 0 to 100"),
      }),
    ),
  }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profile_id, input.serialNumber);
    const data = (await listKidApps(ctx.services.db, device.id, { q: input.q, category: input.category || undefined })).map((a) => ({
      _id: a.id,
      package_name: a.packageName,
      title: a.title,
      icon: a.icon,
      category: a.category,
      categoryName: a.categoryName,
      enableDailyLimit: a.enableDailyLimit,
      dailyLimitTime: a.dailyLimit,
      is_app_disabled: a.isAppDisabled,
      appEnabledDisabledType: a.disabledType,
      usedToday: a.usedToday,
      progressBarPercentage: limitProgress(a.usedToday, a.enableDailyLimit ? a.dailyLimit : 0).percent,
    }));
    return { respones_msg: data.length ? "Applications." : "No data found.", data };
  },
});

export const parentRecommended = defineCall({
  method: "post",
  path: "/application/parent/app/recommended",
  tag: APPS,
  summary: "Whether the parent recommends an app (on their ratings of it)",
  note: "The recommendation is part of the parent's rating (application/parent/rating's isRecommend, one per kid): this changes it on each of their ratings of the app; none yet is a 404 ('Please rate this app first.').",
  auth: "parent",
  changes: true,
  input: body({ packageName, isRecommend: z.boolean() }),
  reply: z.object({}),
  errors: { 404: "The parent has not rated this app." },
  handle: async (ctx, input) => {
    const changed = await setParentRecommendation(ctx.services.db, ctx.parent!.id, input.packageName, input.isRecommend);
    if (!changed) throw new ApiError(404, "Please rate this app first.");
    return { respones_msg: input.isRecommend ? "You recommend this app." : "You no longer recommend this app." };
  },
});
