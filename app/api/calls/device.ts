import { z } from "zod";
import { TRPCError } from "@trpc/server";
import { recordId, serialNumber } from "#core/values";
import { FCM_ACTION_NAMES } from "#device-service/commands/types";
import { NOT_YOUR_DEVICE } from "#device-service/trpc";
import { findAccessibleDevice } from "#db/queries/access";
import { listKidsForParent } from "#db/queries/kids";
import { getAppUsageChart, listKidApps } from "#db/queries/apps";
import { formatMinutes } from "#core/duration";
import { getKidOverview } from "#db/queries/dashboard/overview";
import { getDeviceDetails } from "#db/queries/dashboard/device";
import { getGlobalDailyLimit, GLOBAL_DAILY_LIMIT_KEY } from "#db/queries/dashboard/limits";
import { getLocationSettings } from "#db/queries/dashboard/location";
import { countUnreadNotifications, listNotifications } from "#db/queries/dashboard/notifications";
import { listPendingRatings, markRatingsShown } from "#db/queries/dashboard/ratings";
import { getUsage } from "#db/queries/dashboard/usage";
import { resolvePeriod } from "~/rules/periods";
import { checkDailyLimit } from "~/rules/minutes";
import { requireKidAccess } from "~/utils/auth.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { body, defineCall, query, queryInt, type CallContext } from "../define";
import { ApiError } from "../envelope";

const KIDS = "Kids and devices";
const USAGE = "Usage";
const CONTROL = "Controls";
const NOTES = "Notifications";

/** The spec's period parameters of the usage calls (spec 1 §7 device/most-used-apps and its neighbours). */
export const periodQuery = {
  profileId: recordId,
  serialNumber,
  currentDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "currentDate must be a day, YYYY-MM-DD.")
    .optional(),
  filterType: z.enum(["day", "week"]).default("day"),
  weekType: z.enum(["current", "previous"]).default("current"),
};

/** The kid's phone named by the call, with the page guard's check (own kid or accepted delegation; else 404). */
export async function kidDevice(ctx: CallContext, profileId: string, serial: string) {
  return requireKidDevice(ctx.guardArgs(), profileId, serial);
}

/** A phone by serial number under the access rule (the device service's own lookup): else 404, revealing nothing. */
export async function accessibleDevice(ctx: CallContext, serial: string) {
  const found = await findAccessibleDevice(ctx.services.db, ctx.parent!, serial);
  if (!found) throw new ApiError(404, NOT_YOUR_DEVICE);
  return found;
}

const kidItem = z.object({
  _id: z.string(),
  profile_name: z.string(),
  serialNumber: z.string().nullable(),
  own: z.boolean().describe("The parent's own kid (false: shared with them by its owner)."),
  ownerName: z.string(),
  phone: z.enum(["none", "online", "offline"]),
  lastSeen: z.string().nullable(),
});

export const kidsList = defineCall({
  method: "get",
  path: "/device/kids-list",
  tag: KIDS,
  summary: "The kids this parent may see: own, and shared with them and accepted",
  note: "search_profile_type: all (default), own or shared. profileId, when given, must be one of them (404 otherwise).",
  auth: "parent",
  changes: false,
  input: query({
    profileId: recordId.optional(),
    search_profile_name: z.string().max(80).optional(),
    search_profile_type: z.enum(["all", "own", "shared"]).default("all"),
    pageSize: queryInt(1, 50).default("50"),
  }),
  reply: z.object({ data: z.array(kidItem) }),
  handle: async (ctx, input) => {
    if (input.profileId) await requireKidAccess(ctx.guardArgs(), input.profileId);
    const kids = await listKidsForParent(ctx.services.db, ctx.parent!, {
      pageSize: input.pageSize,
      search: input.search_profile_name?.trim() || undefined,
    });
    const wanted = kids.filter((k) => input.search_profile_type === "all" || k.own === (input.search_profile_type === "own"));
    return {
      respones_msg: wanted.length ? "Kids list." : "No data found.",
      data: wanted.map((k) => ({
        _id: k.id,
        profile_name: k.name,
        serialNumber: k.serialNumber,
        own: k.own,
        ownerName: k.ownerName,
        phone: k.phone,
        lastSeen: k.lastSeen,
      })),
    };
  },
});

const appItem = z.object({
  packageName: z.string(),
  title: z.string(),
  icon: z.string().nullable(),
  playStoreCategory: z.string(),
  categoryName: z.string(),
  isAppDisabled: z.boolean(),
  dailyLimit: z.number(),
  enableDailyLimit: z.boolean(),
  timeInMinute: z.number(),
});

export const mostUsedApps = defineCall({
  method: "get",
  path: "/device/most-used-apps",
  tag: USAGE,
  summary: "Most-used apps of a period, the total, and installed apps not used in it",
  note: "filterType day or week; weekType current or previous (week only); currentDate YYYY-MM-DD (default today; never later). The dashboard's figures.",
  auth: "parent",
  changes: false,
  input: query({ ...periodQuery, category: z.string().max(64).optional() }),
  reply: z.object({
    data: z.array(appItem),
    totalUsedTime: z.number().describe("Minutes"),
    notUsedApps: z.array(z.object({ packageName: z.string(), title: z.string(), icon: z.string().nullable() })),
  }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    const period = resolvePeriod({ filter: input.filterType, date: input.currentDate, week: input.weekType }, new Date());
    const [usage, installed] = await Promise.all([
      getUsage(ctx.services.db, input.profileId, device.id, period),
      listKidApps(ctx.services.db, device.id, { category: input.category }),
    ]);
    const apps = input.category ? usage.apps.filter((a) => a.playStoreCategory === input.category) : usage.apps;
    const used = new Set(usage.apps.map((a) => a.packageName));
    return {
      respones_msg: apps.length ? "Most used apps." : "No data found.",
      data: apps,
      totalUsedTime: apps.reduce((s, a) => s + a.timeInMinute, 0),
      notUsedApps: installed
        .filter((a) => !used.has(a.packageName))
        .map((a) => ({ packageName: a.packageName, title: a.title, icon: a.icon })),
    };
  },
});

export const mostUsedCategory = defineCall({
  method: "get",
  path: "/application/most-used-category",
  tag: USAGE,
  summary: "Most-used categories of a period",
  auth: "parent",
  changes: false,
  input: query({ ...periodQuery, category: z.string().max(64).optional() }),
  reply: z.object({
    data: z.array(
      z.object({
        category: z.string(),
        name: z.string(),
        isCategoryEnabled: z.boolean(),
        enableDailyLimit: z.boolean(),
        dailyLimitTime: z.number(),
        usedTime: z.number(),
      }),
    ),
  }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    const period = resolvePeriod({ filter: input.filterType, date: input.currentDate, week: input.weekType }, new Date());
    const usage = await getUsage(ctx.services.db, input.profileId, device.id, period);
    const data = input.category ? usage.categories.filter((c) => c.category === input.category) : usage.categories;
    return { respones_msg: data.length ? "Most used categories." : "No data found.", data };
  },
});

export const categoryChart = defineCall({
  method: "get",
  path: "/application/category-chart",
  tag: USAGE,
  summary: "The stacked category chart of a period (hours of a day, or days of a week)",
  note: "The spec's reply is chart options for its charting library; here the chart's data: slots (x labels), the stacked categories, and per slot the minutes of each.",
  auth: "parent",
  changes: false,
  input: query({ ...periodQuery, category: z.string().max(64).optional() }),
  reply: z.object({
    data: z.object({
      slots: z.array(z.string()),
      categories: z.array(z.object({ key: z.string(), name: z.string() })),
      rows: z.array(z.object({ slot: z.string(), values: z.record(z.number()) })),
    }),
  }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    const period = resolvePeriod({ filter: input.filterType, date: input.currentDate, week: input.weekType }, new Date());
    const usage = await getUsage(ctx.services.db, input.profileId, device.id, period);
    return { respones_msg: "Category chart.", data: usage.chart };
  },
});

const overviewDevice = z.object({
  _id: z.string(),
  serialNumber: z.string(),
  appVersion: z.string().nullable(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  protectionEnabled: z.boolean(),
  allowFullDeviceAccess: z.boolean(),
  enableLocationMapDisplay: z.boolean(),
  batteryPercentage: z.number().nullable(),
  wifiConnected: z.boolean(),
  kidsAppStatus: z.string(),
  online: z.boolean(),
  statusUpdatedAt: z.string().nullable(),
  lastLocation: z.object({ latitude: z.number(), longitude: z.number(), deviceTime: z.string() }).nullable(),
});

export const bySerialNumber = defineCall({
  method: "get",
  path: "/device/by-serialNumber",
  tag: KIDS,
  summary: "A phone and its kid, as the dashboard shows them",
  note: "The spec does not show the reply: the dashboard's kid and phone overview.",
  auth: "parent",
  changes: false,
  input: query({ serialNumber }),
  reply: z.object({
    data: z.object({
      profile: z.object({
        _id: z.string(),
        profile_name: z.string(),
        birthMonth: z.number(),
        birthYear: z.number(),
        sleepMode: z.boolean(),
      }),
      device: overviewDevice,
    }),
  }),
  handle: async (ctx, input) => {
    const found = await accessibleDevice(ctx, input.serialNumber);
    const overview = await getKidOverview(ctx.services.db, found.kid.id);
    const d = overview?.device;
    if (!overview || !d || d.serialNumber !== found.device.serial_number) throw new ApiError(404, NOT_YOUR_DEVICE);
    const p = overview.profile;
    return {
      respones_msg: "Device.",
      data: {
        profile: { _id: p.id, profile_name: p.name, birthMonth: p.birthMonth, birthYear: p.birthYear, sleepMode: p.sleepMode },
        device: {
          _id: d.id,
          serialNumber: d.serialNumber,
          appVersion: d.appVersion,
          brand: d.brand,
          model: d.model,
          protectionEnabled: d.protectionEnabled,
          allowFullDeviceAccess: d.allowFullDeviceAccess,
          enableLocationMapDisplay: d.enableLocationMapDisplay,
          batteryPercentage: d.batteryPercentage,
          wifiConnected: d.wifiConnected,
          kidsAppStatus: d.kidsAppStatus,
          online: d.online,
          statusUpdatedAt: d.statusUpdatedAt,
          lastLocation: d.lastLocation,
        },
      },
    };
  },
});

export const deviceInfo = defineCall({
  method: "get",
  path: "/device/info",
  tag: KIDS,
  summary: "The phone's hardware details (the Device info page)",
  auth: "parent",
  changes: false,
  input: query({ serialNumber }),
  reply: z.object({ data: z.record(z.union([z.string(), z.number(), z.null()])) }),
  handle: async (ctx, input) => {
    const found = await accessibleDevice(ctx, input.serialNumber);
    const details = await getDeviceDetails(ctx.services.db, found.device.id);
    if (!details) throw new ApiError(404, NOT_YOUR_DEVICE);
    return { respones_msg: "Device info.", data: details as Record<string, string | number | null> };
  },
});

/** A command's reply: the device service's message and the stored command's id. */
const commandReply = z.object({ data: z.object({ commandId: z.string().nullable() }) });

export const deviceSync = defineCall({
  method: "get",
  path: "/device/sync",
  tag: CONTROL,
  summary: "Ask the phone to sync now",
  note: "The spec names the parameter `id` and uses GET; here `id` is the phone's serial number. It sends a command, so read-scoped tokens are refused.",
  auth: "parent",
  changes: true,
  input: query({ id: serialNumber }),
  reply: commandReply,
  handle: async (ctx, input) => {
    const r = await ctx.device().device.sync({ serialNumber: input.id });
    return { respones_msg: r.respones_msg, data: { commandId: r.commandId } };
  },
});

/** The spec's `_id` of a phone: its id, looked up under the access rule by the device service's procedure. */
async function serialOfDeviceId(ctx: CallContext, id: string): Promise<string> {
  const row = await ctx.services.db.selectFrom("devices").select("serial_number").where("id", "=", id).executeTakeFirst();
  if (!row) throw new ApiError(404, NOT_YOUR_DEVICE);
  return row.serial_number;
}

export const updateDevice = defineCall({
  method: "post",
  path: "/device/update-device",
  tag: CONTROL,
  summary: "Map display on the dashboard, or location tracking and its interval",
  note: "_id is the phone's id (device/by-serialNumber's data.device._id). The interval is in minutes, a multiple of 15.",
  auth: "parent",
  changes: true,
  input: body({
    _id: recordId,
    enableLocationMapDisplay: z.boolean().optional(),
    enableLocationTracking: z.boolean().optional(),
    locationTrackingInterval: z.number().int().min(0).max(1440).optional(),
  }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const { _id, ...changes } = input;
    const r = await ctx.device().device.updateDevice({ serialNumber: await serialOfDeviceId(ctx, _id), ...changes });
    return { respones_msg: r.respones_msg };
  },
});

export const locationSetting = defineCall({
  method: "get",
  path: "/device/get-location-setting",
  tag: KIDS,
  summary: "Location tracking and its interval",
  auth: "parent",
  changes: false,
  input: query({ profile_id: recordId, serialNumber }),
  reply: z.object({ data: z.object({ enableLocationTracking: z.boolean(), locationTrackingInterval: z.number() }) }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profile_id, input.serialNumber);
    return { respones_msg: "Location settings.", data: await getLocationSettings(ctx.services.db, device.id) };
  },
});

const globalKey = z.enum([GLOBAL_DAILY_LIMIT_KEY]).describe("GlobalDailyLimit: the phone's daily limit in minutes (0 = off).");

export const updateGlobalSetting = defineCall({
  method: "post",
  path: "/device/update-global-setting",
  tag: CONTROL,
  summary: "Save a global setting of the phone",
  note: "The one key the product has is GlobalDailyLimit (minutes, a multiple of 15; 0 turns it off). A non-multiple of 15 is refused with 'Please enter time multiple of 15.'.",
  auth: "parent",
  changes: true,
  input: body({ key: globalKey, value: z.union([z.number(), z.string().max(10)]), serialNumber, profileId: recordId }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    await kidDevice(ctx, input.profileId, input.serialNumber);
    const checked = checkDailyLimit(String(input.value));
    if (!checked.ok) throw new ApiError(400, checked.message);
    const r = await ctx.device().settings.setGlobalDailyLimit({ serialNumber: input.serialNumber, minutes: checked.minutes });
    return { respones_msg: r.respones_msg };
  },
});

export const getGlobalSetting = defineCall({
  method: "get",
  path: "/device/get-global-setting",
  tag: KIDS,
  summary: "A global setting of the phone",
  auth: "parent",
  changes: false,
  input: query({ key: globalKey, serialNumber }),
  reply: z.object({ data: z.object({ key: z.string(), value: z.number() }) }),
  handle: async (ctx, input) => {
    const found = await accessibleDevice(ctx, input.serialNumber);
    return {
      respones_msg: "Global setting.",
      data: { key: input.key, value: await getGlobalDailyLimit(ctx.services.db, found.device.id) },
    };
  },
});

export const sleepMode = defineCall({
  method: "post",
  path: "/device-profile/update/sleepMode",
  tag: CONTROL,
  summary: "Turn sleep mode on or off",
  note: "The new policy goes to the kid's phones at once (the spec's follow-up apply-policy call is not needed).",
  auth: "parent",
  changes: true,
  input: body({ profileId: recordId, sleepMode: z.boolean(), serialNumber: serialNumber.optional() }),
  reply: z.object({ data: z.object({ commandId: z.string().nullable(), policyVersion: z.number().nullable() }) }),
  handle: async (ctx, input) => {
    const r = await ctx.device().kids.setSleepMode({ profileId: input.profileId, sleepMode: input.sleepMode });
    return { respones_msg: r.respones_msg, data: { commandId: r.commandId, policyVersion: r.policyVersion } };
  },
});

export const protectionStatus = defineCall({
  method: "post",
  path: "/device-profile/update/protectionStatus",
  tag: CONTROL,
  summary: "App protection, and (from Global settings) allow full access",
  auth: "parent",
  changes: true,
  input: body({ profileId: recordId, kidsAppProtectionStatus: z.boolean(), allowFullAccess: z.boolean().optional(), serialNumber }),
  reply: z.object({ data: z.object({ policyVersion: z.number() }) }),
  handle: async (ctx, input) => {
    const r = await ctx.device().kids.setProtection(input);
    return { respones_msg: r.respones_msg, data: { policyVersion: r.policyVersion } };
  },
});

export const applyPolicy = defineCall({
  method: "post",
  path: "/device-profile/apply/policy",
  tag: CONTROL,
  summary: "Send the phone its current policy again",
  auth: "parent",
  changes: true,
  input: body({ profile_id: recordId, serialNumber }),
  reply: z.object({ data: z.object({ policyVersion: z.number(), commandId: z.string().nullable() }) }),
  handle: async (ctx, input) => {
    const r = await ctx.device().device.applyPolicy({ serialNumber: input.serialNumber, profileId: input.profile_id });
    return { respones_msg: r.respones_msg, data: { policyVersion: r.policyVersion, commandId: r.commandId ?? null } };
  },
});

export const issueCommand = defineCall({
  method: "post",
  path: "/device-profile/kids/device/issue/command",
  tag: CONTROL,
  summary: "Lock or reboot the phone",
  auth: "parent",
  changes: true,
  input: body({ type: z.enum(["LOCK", "REBOOT"]), serialNumber }),
  reply: commandReply,
  handle: async (ctx, input) => {
    const r = await ctx.device().device.issueCommand(input);
    return { respones_msg: r.respones_msg, data: { commandId: r.commandId } };
  },
});

export const fcmCommand = defineCall({
  method: "post",
  path: "/device/send/fcm-command",
  tag: CONTROL,
  summary: "Send the phone a command (ring, stop the sound, send its location, app actions)",
  auth: "parent",
  changes: true,
  input: body({
    title: z.string().max(200).optional(),
    message: z.string().max(1000).optional(),
    packageName: z.string().max(255).optional(),
    action: z.enum(FCM_ACTION_NAMES),
    serialNumber,
  }),
  reply: commandReply,
  handle: async (ctx, input) => {
    try {
      const r = await ctx.device().device.sendFcmCommand(input);
      return { respones_msg: r.respones_msg, data: { commandId: r.commandId } };
    } catch (err) {
      // Spec 2 §8: a command that could not be sent says so in these words.
      if (err instanceof TRPCError && err.code === "INTERNAL_SERVER_ERROR") throw new ApiError(500, "Failed to send command.");
      throw err;
    }
  },
});

const ratingItem = z.object({ _id: z.string(), packageName: z.string(), title: z.string().nullable(), icon: z.string().nullable() });

export const pendingRating = defineCall({
  method: "get",
  path: "/application/pending/rating",
  tag: KIDS,
  summary: "Apps installed since the rating popup was last closed",
  note: "showRating is true when there is at least one (the popup opens).",
  auth: "parent",
  changes: false,
  input: query({ serialNumber, profileId: recordId }),
  reply: z.object({ data: z.array(ratingItem), showRating: z.boolean() }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    const rows = await listPendingRatings(ctx.services.db, device.id, 10);
    return {
      respones_msg: rows.length ? "Apps to rate." : "No data found.",
      data: rows.map((r) => ({ _id: r.id, packageName: r.package_name, title: r.title ?? null, icon: r.icon ?? null })),
      showRating: rows.length > 0,
    };
  },
});

export const ratingShown = defineCall({
  method: "get",
  path: "/application/pending/rating/mark-as-shown",
  tag: KIDS,
  summary: "The rating popup was shown: its apps are not offered again",
  note: "A GET as the spec has it, but it changes something: read-scoped tokens are refused.",
  auth: "parent",
  changes: true,
  input: query({ serialNumber, profileId: recordId }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    await markRatingsShown(ctx.services.db, device.id);
    return { respones_msg: "Marked as shown." };
  },
});

const NOTIFICATIONS_PAGE = 20;

export const notificationList = defineCall({
  method: "get",
  path: "/notification/kid/list",
  tag: NOTES,
  summary: "The kid's notifications, 20 a page, newest first",
  note: "Reading the list does not mark anything read (the dashboard's notification centre does, when opened).",
  auth: "parent",
  changes: false,
  input: query({ serialNumber, currentPage: queryInt(1, 1000).default("1") }),
  reply: z.object({
    data: z.array(
      z.object({
        _id: z.string(),
        message: z.string(),
        type: z.string(),
        packageName: z.string().nullable(),
        title: z.string().nullable(),
        createdAt: z.string(),
        read: z.boolean(),
      }),
    ),
    totalNotifications: z.number(),
  }),
  handle: async (ctx, input) => {
    const found = await accessibleDevice(ctx, input.serialNumber);
    const { items, total } = await listNotifications(ctx.services.db, found.kid.id, input.currentPage * NOTIFICATIONS_PAGE);
    return {
      respones_msg: items.length ? "Notifications." : "No data found.",
      data: items.slice((input.currentPage - 1) * NOTIFICATIONS_PAGE).map((n) => ({
        _id: n.id,
        message: n.message,
        type: n.type,
        packageName: n.package_name,
        title: n.title ?? null,
        createdAt: n.created_at,
        read: Boolean(n.read_at),
      })),
      totalNotifications: total,
    };
  },
});

export const unreadCount = defineCall({
  method: "get",
  path: "/notification/kid/unread/count",
  tag: NOTES,
  summary: "How many of the kid's notifications are unread",
  auth: "parent",
  changes: false,
  input: query({ serialNumber }),
  reply: z.object({ data: z.number() }),
  handle: async (ctx, input) => {
    const found = await accessibleDevice(ctx, input.serialNumber);
    return { respones_msg: "Unread notifications.", data: await countUnreadNotifications(ctx.services.db, found.kid.id) };
  },
});

export const appUsageChart = defineCall({
  method: "get",
  path: "/application/usage-chart",
  tag: USAGE,
  summary: "One app's screen time of a period, by hour (day) or by day (week)",
  note: "data is the chart's data (slots, the app as its one series, minutes per slot); deviceDetail the phone; totalUsedTimeInFormat the total as the pages write it.",
  auth: "parent",
  changes: false,
  input: query({ ...periodQuery, packageName: z.string().trim().min(1).max(255) }),
  reply: z.object({
    data: z.object({
      slots: z.array(z.string()),
      categories: z.array(z.object({ key: z.string(), name: z.string() })),
      rows: z.array(z.object({ slot: z.string(), values: z.record(z.number()) })),
    }),
    deviceDetail: z.object({ _id: z.string(), serialNumber: z.string() }),
    totalUsedTimeInFormat: z.string(),
  }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    const period = resolvePeriod({ filter: input.filterType, date: input.currentDate, week: input.weekType }, new Date());
    const r = await getAppUsageChart(ctx.services.db, device.id, input.packageName, period);
    return {
      respones_msg: r.total ? "App usage." : "No data to show",
      data: r.chart,
      deviceDetail: { _id: device.id, serialNumber: device.serial_number },
      totalUsedTimeInFormat: formatMinutes(r.total),
    };
  },
});
