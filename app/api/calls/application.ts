import { z } from "zod";
import { recordId, serialNumber } from "#core/values";
import { getCategoryDetail } from "#db/queries/categories";
import { resolvePeriod } from "~/rules/periods";
import { defineCall, query } from "../define";
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
      apps: z.array(
        z.object({
          packageName: z.string(),
          title: z.string(),
          icon: z.string().nullable(),
          timeInMinute: z.number(),
          enableDailyLimit: z.boolean(),
          dailyLimit: z.number(),
          isAppDisabled: z.boolean(),
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
    const detail = await getCategoryDetail(ctx.services.db, kid.id, device.id, input.id, period);
    if (!detail) throw new ApiError(404, "Category not found.");
    const { chart: _chart, ...data } = detail;
    return { respones_msg: "Category detail.", data };
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
