import { z } from "zod";
import { calendarDay } from "#core/days";
import { recordId, serialNumber } from "#core/values";
import { BROWSER_LOG_MAX_PAGE, DEVICE_LOG_MAX_PAGE } from "#core/limits";
import { listPendingRequests } from "#db/queries/requests";
import { body, defineCall, query, queryInt, type CallContext } from "../define";
import { ApiError } from "../envelope";
import { kidDevice } from "./device";

const REQUESTS = "Requests";
const BROWSER = "Browser logs";
const LOGS = "Device logs";

const requestItem = z.object({
  _id: z.string(),
  packageName: z.string(),
  requestType: z.enum(["App Install", "App Uninstall", "Extend Time"]),
  extendedTime: z.number(),
  remarks: z.string().nullable(),
  createdAt: z.string(),
  title: z.string().nullable(),
  icon: z.string().nullable(),
  dailyLimitTime: z.number().nullable(),
  category: z.string().nullable(),
  extraToday: z.number(),
  paid: z.boolean(),
});

export const requestList = defineCall({
  method: "get",
  path: "/application/request/list",
  tag: REQUESTS,
  summary: "The phone's pending requests, newest first",
  note: "status is Pending, the only list the product shows.",
  auth: "parent",
  changes: false,
  input: query({ profileId: recordId, serialNumber, status: z.literal("Pending").default("Pending") }),
  reply: z.object({ data: z.array(requestItem) }),
  handle: async (ctx, input) => {
    const { device } = await kidDevice(ctx, input.profileId, input.serialNumber);
    const rows = await listPendingRequests(ctx.services.db, device.id, new Date(), input.profileId);
    return { respones_msg: rows.length ? "Requests." : "No data found.", data: rows.map(({ id, ...r }) => ({ _id: id, ...r })) };
  },
});

/** The phone a request was made from (the spec's approve names only the request): the procedure then checks access. */
async function serialOfRequest(ctx: CallContext, id: string): Promise<string> {
  const row = await ctx.services.db
    .selectFrom("app_requests")
    .innerJoin("devices", "devices.id", "app_requests.device_id")
    .select("devices.serial_number")
    .where("app_requests.id", "=", id)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, "We couldn't find this request.");
  return row.serial_number;
}

export const requestApprove = defineCall({
  method: "post",
  path: "/application/request/approve",
  tag: REQUESTS,
  summary: "Approve a request: install, uninstall, or extend the time",
  note: "extendLimit: minutes for an Extend Time request (default: what the kid asked). enableDailyLimit and dailyLimitTime: the install popup's limit. When the app's category stops it anyway: 409 with redirectToCategory true and data the category id, nothing approved.",
  auth: "parent",
  changes: true,
  input: body({
    id: recordId,
    serialNumber: serialNumber.optional(),
    extendLimit: z.number().int().min(1).max(1440).optional(),
    enableDailyLimit: z.boolean().optional(),
    dailyLimitTime: z.number().int().min(0).max(1440).optional(),
  }),
  reply: z.object({}),
  errors: { 404: "Not this parent's request.", 409: "Already answered, or the category stops the app (redirectToCategory)." },
  handle: async (ctx, input) => {
    const serial = input.serialNumber ?? (await serialOfRequest(ctx, input.id));
    const r = await ctx.device().requests.approve({ ...input, serialNumber: serial });
    if ("redirectToCategory" in r) throw new ApiError(409, r.respones_msg, { redirectToCategory: true, data: r.data });
    return { respones_msg: r.respones_msg };
  },
});

export const requestReject = defineCall({
  method: "post",
  path: "/application/request/reject",
  tag: REQUESTS,
  summary: "Reject a request",
  auth: "parent",
  changes: true,
  input: body({ profileId: recordId, serialNumber, id: recordId }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const r = await ctx.device().requests.reject({ serialNumber: input.serialNumber, profileId: input.profileId, id: input.id });
    return { respones_msg: r.respones_msg };
  },
});

export const browserList = defineCall({
  method: "get",
  path: "/browser-logs/list",
  tag: BROWSER,
  summary: "Web addresses the phone visited on a day",
  note: "page from 1 (the page's paging); filterByStatus block or unblock.",
  auth: "parent",
  changes: false,
  input: query({
    currentDate: calendarDay,
    serialNumber,
    urlText: z.string().max(200).optional(),
    filterByStatus: z.enum(["block", "unblock"]).optional(),
    page: queryInt(1, BROWSER_LOG_MAX_PAGE).default("1"),
  }),
  reply: z.object({
    data: z.array(
      z.object({
        _id: z.string(),
        url: z.string(),
        isBlocked: z.boolean(),
        blockedBy: z.string().nullable().describe("The blocked address that covers this one (itself, or a parent domain)."),
        visits: z.number(),
        blockedVisits: z.number(),
        created_at: z.string(),
        updated_at: z.string(),
      }),
    ),
    page: z.number(),
    hasNextPage: z.boolean(),
    total: z.number(),
  }),
  handle: async (ctx, input) => {
    const r = await ctx.device().browser.list(input);
    return {
      respones_msg: r.list.length ? "Browser logs." : "No data found.",
      data: r.list.map((l) => ({
        _id: l.id,
        url: l.url,
        isBlocked: l.isBlocked,
        blockedBy: l.blockedBy,
        visits: Number(l.visits),
        blockedVisits: Number(l.blockedVisits),
        created_at: l.created_at,
        updated_at: l.updated_at,
      })),
      page: r.page,
      hasNextPage: r.hasNextPage,
      total: r.total,
    };
  },
});

export const browserCreate = defineCall({
  method: "post",
  path: "/browser-logs/create",
  tag: BROWSER,
  summary: "Block or unblock a web address",
  auth: "parent",
  changes: true,
  input: body({ serialNumber, url: z.string().max(4096), isBlocked: z.boolean() }),
  reply: z.object({}),
  handle: async (ctx, input) => ({ respones_msg: (await ctx.device().browser.create(input)).respones_msg }),
});

export const browserStatus = defineCall({
  method: "post",
  path: "/browser-logs/update/status",
  tag: BROWSER,
  summary: "Block or unblock a listed web address",
  auth: "parent",
  changes: true,
  input: body({ id: recordId, isBlocked: z.boolean(), serialNumber }),
  reply: z.object({}),
  handle: async (ctx, input) => ({ respones_msg: (await ctx.device().browser.updateStatus(input)).respones_msg }),
});

export const browserUnblockAll = defineCall({
  method: "post",
  path: "/browser-logs/unblock/all",
  tag: BROWSER,
  summary: "Unblock every web address",
  auth: "parent",
  changes: true,
  input: body({ serialNumber }),
  reply: z.object({}),
  handle: async (ctx, input) => ({ respones_msg: (await ctx.device().browser.unblockAll(input)).respones_msg }),
});

export const deviceLogs = defineCall({
  method: "get",
  path: "/device/logs/list",
  tag: LOGS,
  summary: "The phone's log uploads and the commands sent to it, for one day",
  note: "page from 1 pages the log uploads; the day's commands come whole.",
  auth: "parent",
  changes: false,
  input: query({ currentDate: calendarDay, serialNumber, page: queryInt(1, DEVICE_LOG_MAX_PAGE).default("1") }),
  reply: z.object({
    data: z.object({
      page: z.number(),
      hasNextPage: z.boolean(),
      logs: z.array(z.object({ id: z.string(), title: z.string().nullable(), created_at: z.string() }).passthrough()),
      commands: z.array(
        z.object({ id: z.string(), type: z.string(), action: z.string(), status: z.string(), created_at: z.string() }).passthrough(),
      ),
    }),
  }),
  handle: async (ctx, input) => {
    const r = await ctx.device().logs.list(input);
    return { respones_msg: r.logs.length || r.commands.length ? "Device logs." : "No data found.", data: r };
  },
});

export const fetchLogs = defineCall({
  method: "post",
  path: "/device/logs/fetch",
  tag: LOGS,
  summary: "Ask the phone to upload its logs",
  auth: "parent",
  changes: true,
  input: body({ serialNumber }),
  reply: z.object({ data: z.object({ commandId: z.string() }) }),
  handle: async (ctx, input) => {
    const r = await ctx.device().device.fetchLogs(input);
    return { respones_msg: r.respones_msg, data: { commandId: r.commandId } };
  },
});
