import { z } from "zod";
import { recordId, serialNumber } from "#core/values";
import { getCategoryDetail } from "#db/queries/categories";
import { resolvePeriod } from "~/rules/periods";
import { limitProgress } from "~/rules/minutes";
import { formatMinutes } from "#core/duration";
import { getItemAck } from "#device-service/ack";
import { getAppDetail, getAppUsageChart } from "#db/queries/apps";
import { getKidRatings, getParentRatings } from "#db/queries/ratings";
import { overallRating } from "#db/queries/store/catalog";
import { appTitle } from "#core/store";
import { appIconHref } from "#core/app-icon";
import { packageName } from "#core/values";
import { body, defineCall, query } from "../define";
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
