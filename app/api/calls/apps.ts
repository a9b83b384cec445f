import { z } from "zod";
import { packageName, recordId, serialNumber } from "#core/values";
import { listLogFiles, serverLogDir } from "#core/log-files.server";
import { listReports, reportView } from "#db/queries/reports";
import { listPayments, PAYMENTS_PAGE_SIZE } from "#db/queries/payments";
import { paymentsFor } from "~/payments/index.server";
import { CardFormSchema } from "~/payments/card";
import { requireReportWith } from "~/components/reports/report.server";
import { body, defineCall, none, query, queryInt, type CallContext } from "../define";
import { ApiError } from "../envelope";
import { kidDevice } from "./device";

const APPS = "Apps";
const REPORTS = "Reports";
const PAYMENTS = "Payments";
const OPERATORS = "Operators";

const minutes = z.number().int().min(0).max(1440);
const policyReply = z.object({ data: z.object({ policyVersion: z.number().optional() }) });

export const appDailyLimit = defineCall({
  method: "post",
  path: "/application/update/daily-limit",
  tag: APPS,
  summary: "An app's daily limit",
  note: "The spec does not show the method: POST. dailyLimitTime in minutes, a multiple of 15.",
  auth: "parent",
  changes: true,
  input: body({ profile_id: recordId, package_name: packageName, dailyLimitTime: minutes, enableDailyLimit: z.boolean(), serialNumber }),
  reply: policyReply,
  handle: async (ctx, input) => {
    const r = await ctx.device().apps.setLimit({
      serialNumber: input.serialNumber,
      profileId: input.profile_id,
      packageName: input.package_name,
      enableDailyLimit: input.enableDailyLimit,
      dailyLimitTime: input.dailyLimitTime,
    });
    return { respones_msg: r.respones_msg, data: { policyVersion: r.policyVersion } };
  },
});

/** The spec's application_id: the phone's app row, looked up under the same access check (its phone's). */
async function appRow(ctx: CallContext, id: string, serial: string) {
  const row = await ctx.services.db
    .selectFrom("profile_apps")
    .innerJoin("devices", "devices.id", "profile_apps.device_id")
    .select(["profile_apps.package_name", "devices.serial_number"])
    .where("profile_apps.id", "=", id)
    .executeTakeFirst();
  if (!row || row.serial_number !== serial) throw new ApiError(404, "We couldn't find this app on the phone.");
  return row;
}

export const appStatus = defineCall({
  method: "post",
  path: "/device-profile/application/update/status",
  tag: APPS,
  summary: "Disable or enable an app by hand",
  note: "application_id is the app's _id on the phone (application/request/list and the dashboard name apps by package; the apps page by this id).",
  auth: "parent",
  changes: true,
  input: body({ application_id: recordId, is_app_disabled: z.boolean(), serialNumber }),
  reply: policyReply,
  handle: async (ctx, input) => {
    const row = await appRow(ctx, input.application_id, input.serialNumber);
    const r = await ctx
      .device()
      .apps.setEnabled({ serialNumber: input.serialNumber, packageName: row.package_name, enabled: !input.is_app_disabled });
    return { respones_msg: r.respones_msg, data: { policyVersion: r.policyVersion } };
  },
});

export const appCreate = defineCall({
  method: "post",
  path: "/device-profile/application/create",
  tag: APPS,
  summary: "Install an app on the phone (from the store)",
  note: "is_web_app false and type Android are the only values the product has. The store's install: the spec's separate master-application call is not needed.",
  auth: "parent",
  changes: true,
  input: body({
    profile_id: recordId,
    package_name: packageName,
    is_web_app: z.literal(false).default(false),
    type: z.literal("Android").default("Android"),
    serialNumber,
    enableDailyLimit: z.boolean(),
    dailyLimitTime: minutes,
  }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const r = await ctx.device().store.install({
      serialNumber: input.serialNumber,
      profileId: input.profile_id,
      packageName: input.package_name,
      enableDailyLimit: input.enableDailyLimit,
      dailyLimitTime: input.dailyLimitTime,
    });
    return { respones_msg: r.respones_msg };
  },
});

const uninstallInput = body({ package_name: packageName, profile_id: recordId, serialNumber, requestId: recordId.optional() });
const uninstall = async (ctx: CallContext, input: z.infer<typeof uninstallInput>) => {
  const r = await ctx.device().store.uninstall({
    serialNumber: input.serialNumber,
    profileId: input.profile_id,
    packageName: input.package_name,
    requestId: input.requestId,
  });
  return { respones_msg: r.respones_msg };
};

export const appUninstall = defineCall({
  method: "post",
  path: "/device-profile/application/uninstall",
  tag: APPS,
  summary: "Uninstall an app from the phone",
  note: "System apps and the kids app are refused ('This is a system app and cannot be uninstalled.').",
  auth: "parent",
  changes: true,
  input: uninstallInput,
  reply: z.object({}),
  handle: uninstall,
});

export const appDelete = defineCall({
  method: "post",
  path: "/device-profile/application/delete",
  tag: APPS,
  summary: "Remove an app from the phone (the same as uninstall)",
  auth: "parent",
  changes: true,
  input: uninstallInput,
  reply: z.object({}),
  handle: uninstall,
});

export const categoryLimit = defineCall({
  method: "post",
  path: "/application/category/limit/update",
  tag: APPS,
  summary: "A category's daily limit and whether it is allowed",
  note: "id is the store category's id (most-used-category's data[].category).",
  auth: "parent",
  changes: true,
  input: body({
    id: z.string().trim().min(1).max(64),
    dailyLimitTime: minutes,
    enableDailyLimit: z.boolean(),
    isCategoryEnabled: z.boolean(),
    serialNumber,
  }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const r = await ctx.device().categories.update({
      serialNumber: input.serialNumber,
      category: input.id,
      dailyLimitTime: input.dailyLimitTime,
      enableDailyLimit: input.enableDailyLimit,
      isCategoryEnabled: input.isCategoryEnabled,
    });
    return { respones_msg: r.respones_msg };
  },
});

export const reportList = defineCall({
  method: "get",
  path: "/device/report/list",
  tag: REPORTS,
  summary: "The kid's reports of a month",
  auth: "parent",
  changes: false,
  input: query({ serialNumber, profileId: recordId, year: queryInt(2000, 2100), month: queryInt(1, 12) }),
  reply: z.object({
    data: z.array(
      z.object({
        _id: z.string(),
        title: z.string(),
        kind: z.enum(["Weekly", "Monthly"]),
        periodStart: z.string(),
        periodEnd: z.string(),
        totalMinutes: z.number(),
      }),
    ),
  }),
  handle: async (ctx, input) => {
    await kidDevice(ctx, input.profileId, input.serialNumber);
    const rows = await listReports(ctx.services.db, input.profileId, input.year, input.month);
    return {
      respones_msg: rows.length ? "Reports." : "No data found.",
      data: rows.map((r) => ({
        _id: r.id,
        title: r.title,
        kind: r.kind,
        periodStart: r.period_start,
        periodEnd: r.period_end,
        totalMinutes: Number(r.total_minutes),
      })),
    };
  },
});

export const reportDetail = defineCall({
  method: "get",
  path: "/device/report/detail",
  tag: REPORTS,
  summary: "One report, as it was built",
  auth: "parent",
  changes: false,
  input: query({ id: recordId, serialNumber: serialNumber.optional(), profileId: recordId.optional() }),
  reply: z.object({
    data: z.object({
      id: z.string(),
      profileId: z.string(),
      kind: z.enum(["Weekly", "Monthly"]),
      periodStart: z.string(),
      periodEnd: z.string(),
      title: z.string(),
      totalMinutes: z.number(),
      previousMinutes: z.number(),
      dailyUsage: z.array(z.record(z.unknown())),
      topApps: z.array(z.record(z.unknown())),
      topCategories: z.array(z.record(z.unknown())),
      limitsHit: z.array(z.record(z.unknown())),
      requestsAnswered: z.array(z.record(z.unknown())),
    }),
  }),
  handle: async (ctx, input) => {
    const { report } = await requireReportWith(ctx.guardArgs(), input.id, async () => null);
    if (input.profileId && input.profileId !== report.profile_id) throw new ApiError(404, "Report not found.");
    return { respones_msg: "Report.", data: reportView(report) as never };
  },
});

const paying = (p: NonNullable<CallContext["parent"]>) => ({ id: p.id, email: p.email, name: p.name });

export const paymentHistory = defineCall({
  method: "get",
  path: "/payment/history",
  tag: PAYMENTS,
  summary: "The parent's payments, newest first",
  note: "page from 1 (the page's paging).",
  auth: "parent",
  changes: false,
  input: query({ page: queryInt(1, 10_000).default("1") }),
  reply: z.object({
    data: z.array(
      z.object({
        _id: z.string(),
        productName: z.string(),
        isTrial: z.boolean(),
        status: z.enum(["Success", "Pending", "Fail"]),
        unitAmount: z.number().describe("In pence"),
        currency: z.string(),
        profileName: z.string().nullable(),
        serialNumber: z.string().nullable(),
        expiryAt: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
    total: z.number(),
  }),
  handle: async (ctx, input) => {
    const { rows, total } = await listPayments(ctx.services.db, ctx.parent!.id, input.page, PAYMENTS_PAGE_SIZE);
    return {
      respones_msg: rows.length ? "Payment history." : "No data found.",
      data: rows.map((r) => ({
        _id: r.id,
        productName: r.product_name,
        isTrial: Boolean(r.is_trial),
        status: r.status,
        unitAmount: Number(r.unit_amount),
        currency: r.currency,
        profileName: r.profile_name,
        serialNumber: r.serial_number,
        expiryAt: r.expiry_at,
        createdAt: r.created_at,
      })),
      total,
    };
  },
});

const cardView = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number(),
  exp_year: z.number(),
  isDefault: z.boolean(),
});

export const paymentMethods = defineCall({
  method: "get",
  path: "/payment/list/payment-methods",
  tag: PAYMENTS,
  summary: "The parent's saved cards and which is the default",
  auth: "parent",
  changes: false,
  input: none,
  reply: z.object({ data: z.object({ cards: z.array(cardView), default_source: z.string().nullable() }) }),
  handle: async (ctx) => {
    const cards = await paymentsFor(ctx.services).listCards(paying(ctx.parent!));
    return {
      respones_msg: cards.length ? "Payment methods." : "No data found.",
      data: {
        cards: cards.map((c) => ({
          id: c.id,
          brand: c.brand,
          last4: c.last4,
          exp_month: c.exp_month,
          exp_year: c.exp_year,
          isDefault: c.isDefault,
        })),
        default_source: cards.find((c) => c.isDefault)?.id ?? null,
      },
    };
  },
});

const cardId = body({ id: z.string().trim().min(1).max(255), isKids: z.boolean().optional() });

export const defaultCard = defineCall({
  method: "post",
  path: "/payment/card/change/default/card",
  tag: PAYMENTS,
  summary: "Make a saved card the default",
  auth: "parent",
  changes: true,
  input: cardId,
  reply: z.object({}),
  handle: async (ctx, input) => {
    const r = await paymentsFor(ctx.services).setDefault(paying(ctx.parent!), input.id);
    if (!r.ok) throw new ApiError(r.notFound ? 404 : 400, r.notFound ? "Card not found." : r.message);
    return { respones_msg: "Your default card has been changed." };
  },
});

export const deleteCard = defineCall({
  method: "post",
  path: "/payment/card/delete",
  tag: PAYMENTS,
  summary: "Delete a saved card (never the default)",
  auth: "parent",
  changes: true,
  input: cardId,
  reply: z.object({}),
  handle: async (ctx, input) => {
    const r = await paymentsFor(ctx.services).remove(paying(ctx.parent!), input.id);
    if (!r.ok) throw new ApiError(r.notFound ? 404 : 400, r.notFound ? "Card not found." : r.message);
    return { respones_msg: "Your card has been deleted." };
  },
});

export const createCard = defineCall({
  method: "post",
  path: "/payment/card/create",
  tag: PAYMENTS,
  summary: "Add a card (the local demo provider only)",
  note: "With Stripe, card numbers never reach this server: the call answers 400 and the card is added on the Payment methods page.",
  auth: "parent",
  changes: true,
  input: CardFormSchema.extend({
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int().min(0).max(2100),
    isKids: z.boolean().optional(),
  }).strict(),
  reply: z.object({ data: cardView }),
  handle: async (ctx, input) => {
    const payments = paymentsFor(ctx.services);
    if (payments.kind !== "local") throw new ApiError(400, "Please add your card with the secure card form on the Payment methods page.");
    const r = await payments.addCard(paying(ctx.parent!), input);
    if (!r.ok) throw new ApiError(400, r.message ?? Object.values(r.fieldErrors).flat()[0] ?? "Please check the card.");
    const c = r.card;
    return {
      respones_msg: "Your card has been added.",
      data: { id: c.id, brand: c.brand, last4: c.last4, exp_month: c.exp_month, exp_year: c.exp_year, isDefault: c.isDefault },
    };
  },
});

export const serverLogs = defineCall({
  method: "get",
  path: "/device/server/logs/files",
  tag: OPERATORS,
  summary: "The server's log files (operators only)",
  note: "Each file is served at /kids/{name} to a signed-in operator.",
  auth: "operator",
  changes: false,
  input: none,
  reply: z.object({ data: z.array(z.object({ name: z.string(), size: z.number(), modified: z.string() })) }),
  handle: async (ctx) => {
    const files = await listLogFiles(serverLogDir(ctx.services.env.DATA_DIR));
    return {
      respones_msg: files.length ? "Log files." : "No data found.",
      data: files.map((f) => ({ name: f.name, size: f.size, modified: String(f.modified) })),
    };
  },
});
