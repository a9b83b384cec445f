import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTORS, createAuthzFixture, type Actor, type Fixture } from "./authz.testing";
import {
  kidQs,
  type Ids,
  freshDelegation,
  ownersCard,
  visitedUrl,
  installedApp,
  pendingRequest,
  strangersRequest,
  requestForm,
  appQs,
  storeApp,
  installedStoreApp,
  storeQs,
  categoryQs,
  kidReport,
  kidSchedule,
  WEEK,
  schedulesQs,
  bedtimeForm,
  ownersEndpoint,
  aPlace,
  placeForm,
} from "./authz-probes.testing";
import { readToast } from "./utils/toast.server";

/**
 * The authorisation matrix: every route module that takes a kid, device, app, request, report, log, command or
 * delegation id, each of its loaders and actions, as the owner, an accepted, pending, revoked or rejected
 * delegate, and a stranger (another family). Allowed means the route did its work (200 or a redirect without
 * an error toast); refused means 404/403 (nothing revealed). A route module that reads such an id and has no
 * row here fails the first test: a new route joins the matrix by adding a row.
 */

type RouteModule = { loader?: (a: never) => unknown; action?: (a: never) => unknown };

interface Probe {
  name: string;
  method: "GET" | "POST";
  url: (ids: Ids) => string;
  form?: (ids: Ids) => Record<string, string | string[]>;
  /** Who may (default: whoever may see the kid: the owner and the delegate who accepted). */
  allow?: readonly Actor[];
  /** Makes the state this probe needs, fresh for each actor (e.g. a new invitation to answer). */
  prepare?: (fx: Fixture) => Promise<Partial<Ids>>;
}

interface Row {
  module: () => Promise<RouteModule>;
  probes: Probe[];
}

const KID_ACCESS: readonly Actor[] = ["owner", "accepted"];

const dashboardAction = (intent: string, extra: (i: Ids) => Record<string, string> = () => ({})): Probe => ({
  name: `action ${intent}`,
  method: "POST",
  url: (i) => `/kids-device?profileId=${i.profileId}`,
  form: (i) => ({ intent, profileId: i.profileId, ...extra(i) }),
});

const mapQs = (i: Ids) => `/map?lat=51.5&long=-0.14&profileId=${i.profileId}`;

export const MATRIX: Record<string, Row | { exempt: string }> = {
  "_app.api-tokens.tsx": {
    exempt:
      "its id names the parent's own API token, never a kid; another parent's token is not revoked (app/routes/_app.api-tokens.test.ts)",
  },
  "_app.tsx": { exempt: "reads profileId only in its component, to pick the menu's kid from the loader's own accessible list" },
  "_app.alerts.tsx": {
    module: () => import("./routes/_app.alerts"),
    probes: [
      { name: "loader, kid filter", method: "GET", url: (i) => `/alerts?kid=${i.profileId}` },
      {
        name: "action read-all, kid filter",
        method: "POST",
        url: (i) => `/alerts?kid=${i.profileId}`,
        form: () => ({ intent: "read-all" }),
      },
    ],
  },
  "_app.kids-device.tsx": {
    module: () => import("./routes/_app.kids-device"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/kids-device?profileId=${i.profileId}` },
      { name: "loader, notification centre", method: "GET", url: (i) => `/kids-device?profileId=${i.profileId}&modal=notifications` },
      dashboardAction("sleep", () => ({ sleepMode: "on" })),
      dashboardAction("protection", () => ({ protection: "locked" })),
      dashboardAction("map-display", () => ({ enableLocationMapDisplay: "on" })),
      dashboardAction("rating-shown"),
      dashboardAction("enroll"),
      dashboardAction("edit-kid", () => ({ kidName: "Mia", birthMonth: "3", birthYear: "2014" })),
      dashboardAction("bonus", () => ({ bonus: "15" })),
    ],
  },
  "_app.global-settings.tsx": {
    module: () => import("./routes/_app.global-settings"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/global-settings?${kidQs(i)}` },
      {
        name: "action limit",
        method: "POST",
        url: (i) => `/global-settings?${kidQs(i)}`,
        form: () => ({ intent: "limit", minutes: "60" }),
      },
      {
        name: "action weekdays",
        method: "POST",
        url: (i) => `/global-settings?${kidQs(i)}`,
        form: () => ({ intent: "weekdays", ...WEEK }),
      },
      {
        name: "action full-access",
        method: "POST",
        url: (i) => `/global-settings?${kidQs(i)}`,
        form: () => ({ intent: "full-access", allowFullAccess: "off" }),
      },
      { name: "action ring", method: "POST", url: (i) => `/global-settings?${kidQs(i)}`, form: () => ({ intent: "ring", ring: "play" }) },
      {
        name: "action report",
        method: "POST",
        url: (i) => `/global-settings?${kidQs(i)}`,
        form: () => ({ intent: "report", kidsReportType: "Weekly" }),
      },
    ],
  },
  "_app.web-filter.tsx": {
    module: () => import("./routes/_app.web-filter"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/web-filter?${kidQs(i)}` },
      { name: "action switch", method: "POST", url: (i) => `/web-filter?${kidQs(i)}`, form: () => ({ "safeSearch:on": "SafeSearch" }) },
      {
        name: "action add",
        method: "POST",
        url: (i) => `/web-filter?${kidQs(i)}`,
        form: () => ({ intent: "add", newHost: "example.com" }),
      },
      {
        name: "action save",
        method: "POST",
        url: (i) => `/web-filter?${kidQs(i)}`,
        form: () => ({ intent: "save", block: "gambling", safeSearchOn: "on", youtube: "strict" }),
      },
    ],
  },
  "_app.location-settings.tsx": {
    module: () => import("./routes/_app.location-settings"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/location-settings?${kidQs(i)}` },
      { name: "action fetch", method: "POST", url: (i) => `/location-settings?${kidQs(i)}`, form: () => ({ intent: "fetch" }) },
      {
        name: "action save",
        method: "POST",
        url: (i) => `/location-settings?${kidQs(i)}`,
        form: () => ({ intent: "save", enableLocationTracking: "on", interval: "30" }),
      },
    ],
  },
  "_app.device-info.tsx": {
    module: () => import("./routes/_app.device-info"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/device-info?profile_id=${i.profileId}&serialNumber=${i.serialNumber}` },
      ...["lock", "reboot", "sync"].map(
        (intent): Probe => ({
          name: `action ${intent}`,
          method: "POST",
          url: (i) => `/device-info?profile_id=${i.profileId}&serialNumber=${i.serialNumber}`,
          form: () => ({ intent }),
        }),
      ),
      // Confirmed, the command procedure is the check (the phone read with its kid, before anything is stored).
      ...["lock", "reboot"].map(
        (intent): Probe => ({
          name: `action ${intent} confirmed`,
          method: "POST",
          url: (i) => `/device-info?profile_id=${i.profileId}&serialNumber=${i.serialNumber}`,
          form: () => ({ intent, confirmed: "yes" }),
        }),
      ),
    ],
  },
  "resources.kid-picture.tsx": {
    module: () => import("./routes/resources.kid-picture"),
    probes: [{ name: "loader", method: "GET", url: (i) => `/resources/kid-picture?profileId=${i.profileId}` }],
  },
  "resources.notifications.tsx": {
    module: () => import("./routes/resources.notifications"),
    probes: [
      { name: "loader, page", method: "GET", url: (i) => `/resources/notifications?profileId=${i.profileId}&page=1` },
      { name: "loader, count", method: "GET", url: (i) => `/resources/notifications?profileId=${i.profileId}&count=1` },
    ],
  },
  "_app.browser-logs.tsx": {
    module: () => import("./routes/_app.browser-logs"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/browser-logs?${kidQs(i)}` },
      {
        name: "action add",
        method: "POST",
        url: (i) => `/browser-logs?${kidQs(i)}`,
        form: () => ({ intent: "add", url: "blocked.example", status: "block" }),
      },
      {
        name: "action toggle",
        method: "POST",
        url: (i) => `/browser-logs?${kidQs(i)}`,
        form: (i) => ({ intent: "toggle", id: i.browserLogId ?? "", isBlocked: "true" }),
        prepare: visitedUrl,
      },
      { name: "action unblock-all", method: "POST", url: (i) => `/browser-logs?${kidQs(i)}`, form: () => ({ intent: "unblock-all" }) },
      { name: "loader, sites visited", method: "GET", url: (i) => `/browser-logs?${kidQs(i)}&view=sites` },
      {
        name: "action site",
        method: "POST",
        url: (i) => `/browser-logs?${kidQs(i)}&view=sites`,
        form: () => ({ intent: "site", domain: "visited.example", isBlocked: "true" }),
      },
    ],
  },
  "_app.device-logs.tsx": {
    module: () => import("./routes/_app.device-logs"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/device-logs?${kidQs(i)}` },
      { name: "action fetch", method: "POST", url: (i) => `/device-logs?${kidQs(i)}`, form: () => ({ intent: "fetch" }) },
      {
        name: "action send",
        method: "POST",
        url: (i) => `/device-logs?${kidQs(i)}`,
        form: () => ({ intent: "send", action: "send_location", title: "t", message: "m" }),
      },
    ],
  },
  "_app.application.tsx": {
    module: () => import("./routes/_app.application"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/application?${appQs(i)}&tab=usage`, prepare: installedApp },
      {
        name: "action limit",
        method: "POST",
        url: (i) => `/application?${appQs(i)}`,
        form: () => ({ intent: "limit", enableDailyLimit: "on", minutes: "30" }),
        prepare: installedApp,
      },
      {
        name: "action weekdays",
        method: "POST",
        url: (i) => `/application?${appQs(i)}`,
        form: () => ({ intent: "weekdays", ...WEEK }),
        prepare: installedApp,
      },
      {
        name: "action bonus",
        method: "POST",
        url: (i) => `/application?${appQs(i)}`,
        form: () => ({ intent: "bonus", bonus: "15" }),
        prepare: installedApp,
      },
      {
        name: "action enabled",
        method: "POST",
        url: (i) => `/application?${appQs(i)}`,
        form: () => ({ intent: "enabled", enabled: "on" }),
        prepare: installedApp,
      },
      {
        name: "action rating",
        method: "POST",
        url: (i) => `/application?${appQs(i)}`,
        form: () => ({
          intent: "rating",
          isEducational: "4",
          isPositive: "4",
          isSuitableContent: "5",
          isEasyToUnderstand: "3",
          review: "ok",
        }),
        prepare: installedApp,
      },
    ],
  },
  "_app.play-store.tsx": {
    module: () => import("./routes/_app.play-store"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/play-store?${kidQs(i)}&playstoreText=matrix` },
      { name: "loader, install popup", method: "GET", url: (i) => `/play-store?${storeQs(i)}`, prepare: storeApp },
      {
        name: "action install (Skip & Install)",
        method: "POST",
        url: (i) => `/play-store?${storeQs(i)}`,
        form: (i) => ({ intent: "install", packageName: i.packageName ?? "", do: "skip" }),
        prepare: storeApp,
      },
      {
        name: "action uninstall",
        method: "POST",
        url: (i) => `/play-store?${kidQs(i)}`,
        form: (i) => ({ intent: "uninstall", packageName: i.packageName ?? "" }),
        prepare: installedStoreApp,
      },
    ],
  },
  "_app.category.tsx": {
    module: () => import("./routes/_app.category"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/category?${categoryQs(i)}`, prepare: installedApp },
      {
        name: "action limit",
        method: "POST",
        url: (i) => `/category?${categoryQs(i)}`,
        form: () => ({ intent: "limit", enableDailyLimit: "on", minutes: "60" }),
        prepare: installedApp,
      },
      {
        name: "action weekdays",
        method: "POST",
        url: (i) => `/category?${categoryQs(i)}`,
        form: () => ({ intent: "weekdays", ...WEEK }),
        prepare: installedApp,
      },
      {
        name: "action bonus",
        method: "POST",
        url: (i) => `/category?${categoryQs(i)}`,
        form: () => ({ intent: "bonus", bonus: "15" }),
        prepare: installedApp,
      },
      {
        name: "action enabled",
        method: "POST",
        url: (i) => `/category?${categoryQs(i)}`,
        form: () => ({ intent: "enabled", enabled: "on" }),
        prepare: installedApp,
      },
    ],
  },
  "_app.requests.tsx": {
    module: () => import("./routes/_app.requests"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `/requests?${kidQs(i)}` },
      {
        name: "loader, install popup",
        method: "GET",
        url: (i) => `/requests?${kidQs(i)}&modal=install&id=${i.requestId}`,
        prepare: pendingRequest("App Install"),
      },
      {
        name: "action install (Save)",
        method: "POST",
        url: (i) => `/requests?${kidQs(i)}`,
        form: requestForm("install", { do: "save", enableDailyLimit: "on", minutes: "60" }),
        prepare: pendingRequest("App Install"),
      },
      {
        name: "action skip (Skip & Install)",
        method: "POST",
        url: (i) => `/requests?${kidQs(i)}`,
        form: requestForm("install", { do: "skip" }),
        prepare: pendingRequest("App Install"),
      },
      {
        name: "action uninstall",
        method: "POST",
        url: (i) => `/requests?${kidQs(i)}`,
        form: requestForm("uninstall"),
        prepare: pendingRequest("App Uninstall"),
      },
      {
        name: "action extend",
        method: "POST",
        url: (i) => `/requests?${kidQs(i)}`,
        form: requestForm("extend", { extendLimit: "30" }),
        prepare: pendingRequest("Extend Time"),
      },
      {
        name: "action reject",
        method: "POST",
        url: (i) => `/requests?${kidQs(i)}`,
        form: requestForm("reject"),
        prepare: pendingRequest("Extend Time"),
      },
      // The owner's own kid and phone with another family's request id: refused to everyone.
      {
        name: "action reject, another family's request",
        method: "POST",
        url: (i) => `/requests?${kidQs(i)}`,
        form: requestForm("reject"),
        allow: [],
        prepare: strangersRequest,
      },
    ],
  },
  "_app.schedules.tsx": {
    module: () => import("./routes/_app.schedules"),
    probes: [
      { name: "loader", method: "GET", url: (i) => `${schedulesQs(i)}&modal=add&preset=bedtime` },
      { name: "loader, edit", method: "GET", url: (i) => `${schedulesQs(i)}&modal=edit&id=${i.scheduleId}`, prepare: kidSchedule },
      {
        name: "loader, delete confirmation",
        method: "GET",
        url: (i) => `${schedulesQs(i)}&confirm=delete&id=${i.scheduleId}`,
        prepare: kidSchedule,
      },
      { name: "action save (new)", method: "POST", url: schedulesQs, form: () => bedtimeForm },
      {
        name: "action save (edit)",
        method: "POST",
        url: schedulesQs,
        form: (i) => ({ ...bedtimeForm, id: i.scheduleId ?? "" }),
        prepare: kidSchedule,
      },
      {
        name: "action delete",
        method: "POST",
        url: schedulesQs,
        form: (i) => ({ intent: "delete", id: i.scheduleId ?? "" }),
        prepare: kidSchedule,
      },
      {
        name: "action always-allowed",
        method: "POST",
        url: schedulesQs,
        form: (i) => ({ intent: "always-allowed", allowed: i.packageName ?? "" }),
        prepare: installedApp,
      },
    ],
  },
  "_app.apps.tsx": {
    module: () => import("./routes/_app.apps"),
    probes: [{ name: "loader", method: "GET", url: (i) => `/apps?${kidQs(i)}` }],
  },
  "map.tsx": {
    module: () => import("./routes/map"),
    probes: [
      { name: "loader, named after the kid", method: "GET", url: (i) => `/map?lat=51.5&long=-0.14&profileId=${i.profileId}` },
      { name: "loader, framed", method: "GET", url: (i) => `/map?lat=51.5&long=-0.14&profileId=${i.profileId}&embed=1` },
      { name: "loader, a day's trail", method: "GET", url: (i) => `/map?lat=51.5&long=-0.14&profileId=${i.profileId}&day=2026-11-28` },
      { name: "action add-place", method: "POST", url: mapQs, form: (i) => ({ intent: "add-place", ...placeForm(i) }) },
      {
        name: "action edit-place (the kid's place)",
        method: "POST",
        url: mapQs,
        form: (i) => ({ intent: "edit-place", ...placeForm(i) }),
        prepare: aPlace("kid"),
      },
      {
        name: "action delete-place (the kid's place)",
        method: "POST",
        url: mapQs,
        form: (i) => ({ intent: "delete-place", placeId: i.placeId! }),
        prepare: aPlace("kid"),
      },
      {
        name: "action delete-place (the family's place: its owner only)",
        method: "POST",
        url: mapQs,
        form: (i) => ({ intent: "delete-place", placeId: i.placeId! }),
        prepare: aPlace("family"),
        allow: ["owner"],
      },
      {
        name: "action edit-place (another family's place)",
        method: "POST",
        url: mapQs,
        form: (i) => ({ intent: "edit-place", ...placeForm(i) }),
        prepare: aPlace("stranger"),
        allow: [],
      },
      {
        name: "action delete-place (another family's place)",
        method: "POST",
        url: mapQs,
        form: (i) => ({ intent: "delete-place", placeId: i.placeId! }),
        prepare: aPlace("stranger"),
        allow: [],
      },
    ],
  },
  "_app.reports.tsx": {
    module: () => import("./routes/_app.reports"),
    probes: [{ name: "loader", method: "GET", url: (i) => `/reports?${kidQs(i)}` }],
  },
  "_app.report.tsx": {
    module: () => import("./routes/_app.report"),
    probes: [{ name: "loader", method: "GET", url: (i) => `/report?id=${i.reportId}`, prepare: kidReport }],
  },
  "resources.report-chart.tsx": {
    module: () => import("./routes/resources.report-chart"),
    probes: [{ name: "loader", method: "GET", url: (i) => `/resources/report-chart?id=${i.reportId}&chart=bar`, prepare: kidReport }],
  },
  "_app.payment-methods.tsx": {
    module: () => import("./routes/_app.payment-methods"),
    probes: [
      {
        name: "action default",
        method: "POST",
        url: () => "/payment-methods",
        form: (i) => ({ intent: "default", id: i.cardId }),
        allow: ["owner"],
        prepare: ownersCard,
      },
      {
        name: "action delete",
        method: "POST",
        url: () => "/payment-methods",
        form: (i) => ({ intent: "delete", id: i.cardId }),
        allow: ["owner"],
        prepare: ownersCard,
      },
    ],
  },
  // Webhook endpoints are each parent's own: another's (a delegate's, a stranger's) is not found and stays as it was.
  "_app.webhooks.tsx": {
    module: () => import("./routes/_app.webhooks"),
    probes: (["test", "enable", "delete"] as const).map(
      (intent): Probe => ({
        name: `action ${intent}`,
        method: "POST",
        url: () => "/webhooks",
        form: (i) => ({ intent, id: i.endpointId! }),
        allow: ["owner"],
        prepare: ownersEndpoint,
      }),
    ),
  },
  "_app.parent-profile.tsx": {
    module: () => import("./routes/_app.parent-profile"),
    probes: [
      // Delegation is the owner's alone.
      {
        name: "action revoke",
        method: "POST",
        url: () => "/parent-profile",
        form: (i) => ({ intent: "revoke", id: i.delegationId }),
        allow: ["owner"],
        prepare: (fx) => freshDelegation(fx, "accepted", "Accepted"),
      },
      // Only the invited (verified) address may answer.
      {
        name: "action accept",
        method: "POST",
        url: () => "/parent-profile",
        form: (i) => ({ intent: "accept", id: i.delegationId }),
        allow: ["pending"],
        prepare: (fx) => freshDelegation(fx, "pending", "Pending"),
      },
      {
        name: "action reject",
        method: "POST",
        url: () => "/parent-profile",
        form: (i) => ({ intent: "reject", id: i.delegationId }),
        allow: ["pending"],
        prepare: (fx) => freshDelegation(fx, "pending", "Pending"),
      },
    ],
  },
};

/** Reads of an id that names something a parent may or may not own. */
const READS_ID =
  /\.get\(\s*["'](profileId|profile_id|serialNumber|id|packageName|package_name|requestId|reportId|logId|commandId|delegationId)["']\s*\)|params\.(id|profileId|serialNumber)\b/;
const routesDir = path.resolve("app/routes");
const routeFiles = readdirSync(routesDir).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));

type Outcome = "allowed" | "refused" | `unexpected ${string}`;

async function classify(res: unknown): Promise<Outcome> {
  if (!(res instanceof Response)) return "allowed"; // data returned by a loader
  if ([401, 403, 404].includes(res.status)) return "refused";
  if (res.status >= 300 && res.status < 400) {
    const to = res.headers.get("Location") ?? "";
    if (to.startsWith("/login")) return "unexpected redirect to /login";
    const cookie = res.headers.get("Set-Cookie")?.split(";")[0];
    const { toast } = cookie ? await readToast(new Request("http://localhost/", { headers: { Cookie: cookie } })) : { toast: null };
    return toast?.type === "error" ? `unexpected error toast: ${toast.message}` : "allowed";
  }
  return res.status < 300 ? "allowed" : `unexpected status ${res.status}`;
}

async function call(mod: RouteModule, request: Request, context: AppLoadContext): Promise<unknown> {
  const fn = request.method === "GET" ? mod.loader : mod.action;
  if (!fn) throw new Error(`no ${request.method === "GET" ? "loader" : "action"}`);
  try {
    return await (fn as (a: unknown) => Promise<unknown>)({ request, context, params: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("authorisation matrix: the list of routes", () => {
  it("finds the route modules", () => expect(routeFiles).toContain("_app.kids-device.tsx"));

  it("lists every route module that reads a kid, device, app, request, report, log, command or delegation id", () => {
    const readers = routeFiles.filter((f) => READS_ID.test(readFileSync(path.join(routesDir, f), "utf8")));
    expect(readers.length).toBeGreaterThan(5);
    expect(
      readers.filter((f) => !(f in MATRIX)),
      "route modules missing from MATRIX in app/authz-matrix.test.ts",
    ).toEqual([]);
  });

  it("has no rows for route modules that are gone", () => {
    expect(Object.keys(MATRIX).filter((f) => !routeFiles.includes(f))).toEqual([]);
  });
});

describe("authorisation matrix", () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createAuthzFixture("sqlite");
  });
  afterAll(async () => {
    await fx?.close();
  });

  for (const [file, row] of Object.entries(MATRIX)) {
    if ("exempt" in row) continue;
    for (const probe of row.probes) {
      const allow = probe.allow ?? KID_ACCESS;
      it(`${file} ${probe.name}: ${ACTORS.map((a) => `${a} ${allow.includes(a) ? "✓" : "✗"}`).join(", ")}`, async () => {
        const mod = await row.module();
        const seen: Record<string, Outcome> = {};
        const wanted: Record<string, Outcome> = {};
        for (const actor of ACTORS) {
          const ids: Ids = { ...fx.ids, delegationId: "", cardId: "", ...(probe.prepare ? await probe.prepare(fx) : {}) };
          seen[actor] = await classify(await call(mod, fx.request(actor, probe.method, probe.url(ids), probe.form?.(ids)), fx.context()));
          wanted[actor] = allow.includes(actor) ? "allowed" : "refused";
        }
        expect(seen).toEqual(wanted);
        // The same ids of another family are refused even to the owner and the accepted delegate.
        if (!probe.prepare) {
          const other: Ids = {
            ...fx.ids,
            profileId: fx.ids.strangerProfileId,
            serialNumber: fx.ids.strangerSerial,
            delegationId: "",
            cardId: "",
          };
          for (const actor of ["owner", "accepted"] as const) {
            expect(
              await classify(await call(mod, fx.request(actor, probe.method, probe.url(other), probe.form?.(other)), fx.context())),
              `${actor} on another family's kid`,
            ).toBe("refused");
          }
        }
      });
    }
  }
});
