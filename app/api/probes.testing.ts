import express from "express";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createParent } from "#db/queries/parents";
import { createSession } from "#db/queries/sessions";
import { hashPassword } from "#core/password.server";
import type { Parent } from "#db/schema";
import type { AppServices } from "~/load-context";
import type { Fixture } from "../authz.testing";
import {
  installedApp,
  installedStoreApp,
  kidReport,
  ownersCard,
  pendingRequest,
  storeApp,
  visitedUrl,
  type Ids,
} from "../authz-probes.testing";
import { apiRouter, API_BASE } from "./router.server";
import { operationId } from "./openapi";
import type { ApiCall } from "./define";

/** Who calls in the API's matrix: the authz fixture's parents, an operator, and no token at all. */
export const API_ACTORS = ["owner", "accepted", "pending", "revoked", "rejected", "stranger", "operator", "none"] as const;
export type ApiActor = (typeof API_ACTORS)[number];

const KID: readonly ApiActor[] = ["owner", "accepted"];
const SIGNED_IN: readonly ApiActor[] = ["owner", "accepted", "pending", "revoked", "rejected", "stranger", "operator"];
const OWNER: readonly ApiActor[] = ["owner"];
const ANYONE: readonly ApiActor[] = [...SIGNED_IN, "none"];

export interface ApiProbe {
  /** Who may make the call (allowed: not 401/403/404). */
  allow: readonly ApiActor[];
  /** Query or JSON body, from the fixture's ids (and what `prepare` made). */
  input: (i: Ids) => Record<string, unknown>;
  prepare?: (fx: Fixture) => Promise<Partial<Ids>>;
  headers?: (fx: ApiHarness) => Record<string, string>;
}

const kid = (i: Ids) => ({ profileId: i.profileId, serialNumber: i.serialNumber });
const today = () => new Date().toISOString().slice(0, 10);

/**
 * One valid call of every path, and who may make it: the matrix (authz-matrix.test.ts) and the generated-client test
 * (openapi.test.ts) both walk it, and both fail when a call of API_CALLS has no probe here.
 */
export const API_PROBES: Record<string, ApiProbe> = {
  postUsersLogin: { allow: ANYONE, input: () => ({ email: "nobody@nowhere.example", password: "wrong-password" }) },
  postUsersVerifyOtp: { allow: ANYONE, input: () => ({ otp: "1234", email: "alice@family.example", twoStepToken: "x" }) },
  getUsersIsUserLogin: { allow: ANYONE, input: () => ({}) },
  getUsersDetail: { allow: SIGNED_IN, input: () => ({}) },
  getUsersLogout: { allow: SIGNED_IN, input: () => ({}) },
  getUsersParentProfile: { allow: SIGNED_IN, input: () => ({}) },
  postUsersParentDelegateAccess: {
    allow: OWNER,
    input: (i) => ({
      name: "Gran",
      email: `gran${Math.random().toString(36).slice(2, 8)}`,
      accessLevel: "full",
      allowedKids: [i.profileId],
    }),
  },
  postUsersParentUpdateDelegateAccessStatus: { allow: OWNER, input: (i) => ({ id: i.delegationId, status: "Revoked" }) },
  postUsersChangePassword: {
    allow: SIGNED_IN,
    // The owner's password is set fresh each time, so the owner's call succeeds (and ends the owner's sessions).
    prepare: async (fx) => {
      await fx.t.db
        .updateTable("parents")
        .set({ password_hash: await hashPassword("old-Password-2026") })
        .where("id", "=", fx.parents.owner.id)
        .execute();
      return {};
    },
    input: () => ({ old_password: "old-Password-2026", new_password: "new-Password-2026!", confirm_password: "new-Password-2026!" }),
  },
  postUsersUpdateReportFrequency: { allow: SIGNED_IN, input: () => ({ kidsReportType: "Weekly" }) },
  postUsersKidsParentLogin: {
    allow: ANYONE,
    input: () => ({ email: "nobody@nowhere.example", password: "wrong-password" }),
    headers: (h) => ({ "x-api-key": h.services.env.KIDS_APP_API_KEY }),
  },
  postUsersSendForgetPasswordLink: { allow: ANYONE, input: () => ({ email: "nobody@nowhere.example" }) },
  postUsersResetPassword: {
    allow: ANYONE,
    input: () => ({ password: "new-Password-2026!", confirm_password: "new-Password-2026!", iv: "x", encrypted_data: "y" }),
  },
  postUsersVerifyEmail: { allow: ANYONE, input: () => ({ iv: "x", encryptedData: "y" }) },
  getDeviceKidsList: { allow: SIGNED_IN, input: () => ({ pageSize: "50" }) },
  getDeviceMostUsedApps: { allow: KID, input: (i) => ({ ...kid(i), filterType: "week" }) },
  getApplicationMostUsedCategory: { allow: KID, input: (i) => ({ ...kid(i), filterType: "day" }) },
  getApplicationCategoryChart: { allow: KID, input: (i) => ({ ...kid(i), filterType: "week", weekType: "previous" }) },
  getApplicationUsageChart: {
    allow: KID,
    prepare: installedApp,
    input: (i) => ({ ...kid(i), packageName: i.packageName, filterType: "week" }),
  },
  getDeviceBySerialNumber: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber }) },
  getDeviceInfo: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber }) },
  getDeviceSync: { allow: KID, input: (i) => ({ id: i.serialNumber }) },
  postDeviceUpdateDevice: { allow: KID, input: (i) => ({ _id: i.deviceId, enableLocationMapDisplay: true }) },
  getDeviceGetLocationSetting: { allow: KID, input: (i) => ({ profile_id: i.profileId, serialNumber: i.serialNumber }) },
  postDeviceUpdateGlobalSetting: { allow: KID, input: (i) => ({ ...kid(i), key: "GlobalDailyLimit", value: 60 }) },
  getDeviceGetGlobalSetting: { allow: KID, input: (i) => ({ key: "GlobalDailyLimit", serialNumber: i.serialNumber }) },
  postDeviceProfileUpdateSleepMode: {
    allow: KID,
    input: (i) => ({ profileId: i.profileId, sleepMode: true, serialNumber: i.serialNumber }),
  },
  postDeviceProfileUpdateProtectionStatus: { allow: KID, input: (i) => ({ ...kid(i), kidsAppProtectionStatus: true }) },
  postDeviceProfileApplyPolicy: { allow: KID, input: (i) => ({ profile_id: i.profileId, serialNumber: i.serialNumber }) },
  postDeviceProfileKidsDeviceIssueCommand: { allow: KID, input: (i) => ({ type: "LOCK", serialNumber: i.serialNumber }) },
  postDeviceSendFcmCommand: { allow: KID, input: (i) => ({ action: "Ring a Phone", serialNumber: i.serialNumber }) },
  getApplicationPendingRating: { allow: KID, input: kid },
  getApplicationPendingRatingMarkAsShown: { allow: KID, input: kid },
  getNotificationKidList: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber, currentPage: "1" }) },
  getNotificationKidUnreadCount: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber }) },
  getApplicationRequestList: { allow: KID, input: kid },
  postApplicationRequestApprove: { allow: KID, prepare: pendingRequest("App Uninstall"), input: (i) => ({ id: i.requestId }) },
  postApplicationRequestReject: { allow: KID, prepare: pendingRequest("Extend Time"), input: (i) => ({ ...kid(i), id: i.requestId }) },
  getBrowserLogsList: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber, currentDate: today() }) },
  postBrowserLogsCreate: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber, url: "games.example", isBlocked: true }) },
  postBrowserLogsUpdateStatus: {
    allow: KID,
    prepare: visitedUrl,
    input: (i) => ({ id: i.browserLogId, isBlocked: true, serialNumber: i.serialNumber }),
  },
  postBrowserLogsUnblockAll: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber }) },
  getDeviceLogsList: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber, currentDate: today() }) },
  postDeviceLogsFetch: { allow: KID, input: (i) => ({ serialNumber: i.serialNumber }) },
  postApplicationUpdateDailyLimit: {
    allow: KID,
    prepare: installedApp,
    input: (i) => ({
      profile_id: i.profileId,
      serialNumber: i.serialNumber,
      package_name: i.packageName,
      dailyLimitTime: 30,
      enableDailyLimit: true,
    }),
  },
  postDeviceProfileApplicationUpdateStatus: {
    allow: KID,
    prepare: async (fx) => {
      const app = await installedApp(fx);
      const row = await fx.t.db
        .selectFrom("profile_apps")
        .select("id")
        .where("device_id", "=", fx.ids.deviceId)
        .where("package_name", "=", app.packageName!)
        .executeTakeFirstOrThrow();
      return { ...app, appId: row.id } as Partial<Ids>;
    },
    input: (i) => ({ application_id: (i as Ids & { appId: string }).appId, is_app_disabled: true, serialNumber: i.serialNumber }),
  },
  postDeviceProfileApplicationCreate: {
    allow: KID,
    prepare: storeApp,
    input: (i) => ({
      profile_id: i.profileId,
      serialNumber: i.serialNumber,
      package_name: i.packageName,
      enableDailyLimit: false,
      dailyLimitTime: 0,
    }),
  },
  postDeviceProfileApplicationUninstall: {
    allow: KID,
    prepare: installedStoreApp,
    input: (i) => ({ profile_id: i.profileId, serialNumber: i.serialNumber, package_name: i.packageName }),
  },
  postDeviceProfileApplicationDelete: {
    allow: KID,
    prepare: installedStoreApp,
    input: (i) => ({ profile_id: i.profileId, serialNumber: i.serialNumber, package_name: i.packageName }),
  },
  postApplicationCategoryLimitUpdate: {
    allow: KID,
    prepare: installedApp,
    input: (i) => ({ id: i.category, serialNumber: i.serialNumber, dailyLimitTime: 60, enableDailyLimit: true, isCategoryEnabled: true }),
  },
  getDeviceReportList: {
    allow: KID,
    prepare: kidReport,
    input: (i) => ({ ...kid(i), year: String(new Date().getUTCFullYear()), month: String(new Date().getUTCMonth() + 1) }),
  },
  getDeviceReportDetail: { allow: KID, prepare: kidReport, input: (i) => ({ id: i.reportId }) },
  getPaymentHistory: { allow: SIGNED_IN, input: () => ({}) },
  getPaymentListPaymentMethods: { allow: SIGNED_IN, input: () => ({}) },
  postPaymentCardChangeDefaultCard: { allow: OWNER, prepare: ownersCard, input: (i) => ({ id: i.cardId }) },
  postPaymentCardDelete: { allow: OWNER, prepare: ownersCard, input: (i) => ({ id: i.cardId }) },
  postPaymentCardCreate: {
    allow: SIGNED_IN,
    input: () => ({
      card_name: "Test",
      number: "5555555555554444",
      exp_month: 1 + Math.floor(Math.random() * 12),
      exp_year: 2040 + Math.floor(Math.random() * 50),
      cvc: "123",
    }),
  },
  getApplicationCategoryDetail: { allow: KID, prepare: installedApp, input: (i) => ({ id: i.category, serialNumber: i.serialNumber }) },
  getApplicationCategoryDetailChart: {
    allow: KID,
    prepare: installedApp,
    input: (i) => ({ ...kid(i), playStoreCategory: i.category, filterType: "week" }),
  },
  getApplicationDetail: {
    allow: KID,
    prepare: installedApp,
    input: (i) => ({ profile_id: i.profileId, serialNumber: i.serialNumber, package_name: i.packageName, filterType: "week" }),
  },
  postApplicationParentRating: {
    allow: KID,
    prepare: installedApp,
    input: (i) => ({
      profileId: i.profileId,
      packageName: i.packageName,
      isEducational: 4,
      isPositive: 3,
      isSuitableContent: 5,
      isEasyToUnderstand: 2,
      isRecommend: true,
    }),
  },
  getApplicationPlaystore: { allow: KID, input: kid },
  getApplicationPlaystoreSearch: { allow: KID, input: (i) => ({ ...kid(i), ageFilter: "AGE_RANGE2", shown: "40" }) },
  getDeviceProfileApplicationList: {
    allow: KID,
    input: (i) => ({ profile_id: i.profileId, serialNumber: i.serialNumber, install_type: "FORCE_INSTALLED" }),
  },
  postApplicationParentAppRecommended: {
    // Every family's parent has rated the app (the operator has not: 404, nothing to change).
    allow: ["owner", "accepted", "pending", "revoked", "rejected", "stranger"],
    prepare: async (fx) => {
      const app = await installedApp(fx);
      const ts = new Date().toISOString();
      for (const p of Object.values(fx.parents))
        await fx.t.db
          .insertInto("parent_ratings")
          .values({
            id: `rate-${p.id}`.slice(0, 40),
            parent_id: p.id,
            profile_id: fx.ids.profileId,
            package_name: app.packageName!,
            is_educational: 3,
            is_positive: 3,
            is_suitable_content: 3,
            is_easy_to_understand: 3,
            is_recommend: 0,
            is_easy_to_stop: null,
            review: null,
            created_at: ts,
            updated_at: ts,
          })
          .onConflict((oc) => oc.doNothing())
          .execute();
      return app;
    },
    input: (i) => ({ packageName: i.packageName, isRecommend: true }),
  },
  getDeviceServerLogsFiles: { allow: ["operator"], input: () => ({}) },
};

export interface ApiHarness {
  base: string;
  services: AppServices;
  operator: Parent;
  /** Each actor's session token (a fresh one: logout and password change end theirs). */
  token(actor: ApiActor): Promise<string | null>;
  call(
    call: Pick<ApiCall, "method" | "path">,
    actor: ApiActor | string | null,
    input: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** The API router over the authz fixture's services, on a free port. */
export async function startApiHarness(fx: Fixture, o: { callsPerMinute?: number } = {}): Promise<ApiHarness> {
  const services = fx.context().services;
  const operator = await createParent(fx.t.db, {
    email: "ops@portal.example",
    name: "Ops",
    passwordHash: null,
    emailVerified: true,
    role: "operator",
  });
  const app = express();
  app.set("query parser", "simple");
  app.use(API_BASE, apiRouter(services, o));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  // Longer than any pause between a test's calls (a type-check runs between two): an idle kept-alive socket closed by
  // the server while the client reuses it would read as ECONNRESET.
  server.keepAliveTimeout = 120_000;
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const parents: Record<string, Parent> = { ...fx.parents, operator };
  const token = async (actor: ApiActor) =>
    actor === "none" ? null : createSession(fx.t.db, parents[actor]!.id, { idleMinutes: 60, absoluteDays: 1 });
  return {
    base,
    services,
    operator,
    token,
    async call(call, actor, input, headers = {}) {
      const t = actor === null ? null : (API_ACTORS as readonly string[]).includes(actor) ? await token(actor as ApiActor) : actor;
      const h: Record<string, string> = { ...headers };
      if (t) h.Authorization = `Bearer ${t}`;
      let url = `${base}${API_BASE}${call.path}`;
      let init: RequestInit = { method: call.method.toUpperCase(), headers: h };
      if (call.method === "get") url += `?${new URLSearchParams(input as Record<string, string>)}`;
      else init = { ...init, body: JSON.stringify(input), headers: { ...h, "Content-Type": "application/json" } };
      const res = await fetch(url, init);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export { operationId };
