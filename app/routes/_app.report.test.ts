import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unsubscribeUrl } from "#core/report-unsubscribe";
import { createSession } from "#db/queries/sessions";
import { createTestDb, type TestDb } from "#db/index.testing";
import { buildDueReports } from "#jobs/reports/build";
import { addUsage, makeFamily } from "#jobs/reports/reports.testing";
import { parseEnv } from "#core/env.server";
import { loader as reportLoader } from "./_app.report";
import { loader as reportsLoader } from "./_app.reports";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "./reports.unsubscribe";
import { loader as chartLoader } from "./resources.report-chart";

const SECRET = "x".repeat(40);
process.env.SESSION_SECRET ??= SECRET;
process.env.DATA_DIR ??= "/tmp/kids-portal-report-test";

describe("/reports, /report, the chart images and the unsubscribe link", () => {
  let t: TestDb;
  let context: AppLoadContext;
  let family: Awaited<ReturnType<typeof makeFamily>>;
  let other: Awaited<ReturnType<typeof makeFamily>>;
  let token: string;
  let serial: string;
  let reportId: string;
  let otherReportId: string;

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-report-test", SESSION_SECRET: SECRET });
    context = { services: { env, db: t.db, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
    family = await makeFamily(t.db, { name: "Mia", kind: "Weekly", tz: "UTC" });
    other = await makeFamily(t.db, { name: "Zed", kind: "Weekly", tz: "UTC" });
    await addUsage(t.db, family.deviceId, [["2026-11-17T10:00Z", "com.mojang.minecraftpe", 42]]);
    await buildDueReports({ db: t.db }, { now: new Date("2026-11-23T06:00:00Z") });
    token = await createSession(t.db, family.parent.id, { idleMinutes: 60, absoluteDays: 1 });
    serial = (await t.db.selectFrom("devices").select("serial_number").where("id", "=", family.deviceId).executeTakeFirstOrThrow())
      .serial_number;
    reportId = (await t.db.selectFrom("reports").select("id").where("profile_id", "=", family.profileId).executeTakeFirstOrThrow()).id;
    otherReportId = (await t.db.selectFrom("reports").select("id").where("profile_id", "=", other.profileId).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const req = (path: string, init: RequestInit = {}) =>
    new Request(`http://localhost${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
  const call = async <T>(fn: (a: never) => Promise<unknown>, path: string, init?: RequestInit) => {
    try {
      return (await fn({ request: req(path, init), context: { ...context }, params: {} } as never)) as T;
    } catch (e) {
      if (e instanceof Response) return e as T;
      throw e;
    }
  };

  it("lists the kid's reports of the chosen month and year, and none for another month", async () => {
    const found = (await (
      await call<Response>(reportsLoader, `/reports?profileId=${family.profileId}&serialNumber=${serial}&month=11&year=2026`)
    ).json()) as { reports: { id: string; title: string }[]; years: number[] };
    expect(found.reports).toEqual([{ id: reportId, title: "Mia's weekly report: Nov 16 – Nov 22, 2026" }]);
    const none = (await (
      await call<Response>(reportsLoader, `/reports?profileId=${family.profileId}&serialNumber=${serial}&month=10&year=2026`)
    ).json()) as { reports: unknown[] };
    expect(none.reports).toEqual([]);
    expect((await call<Response>(reportsLoader, `/reports?profileId=${other.profileId}&serialNumber=${serial}`)).status).toBe(404);
  });

  it("shows the family's own report, and answers 404 for another family's report id or an unknown one", async () => {
    const own = (await (await call<Response>(reportLoader, `/report?id=${reportId}`)).json()) as {
      report: { title: string; totalMinutes: number; topApps: { name: string }[] };
    };
    expect(own.report).toMatchObject({ title: "Mia's weekly report: Nov 16 – Nov 22, 2026", totalMinutes: 42 });
    expect(own.report.topApps.map((a) => a.name)).toEqual(["Minecraft"]);
    for (const id of [otherReportId, "nope"]) {
      const r = await call<Response>(reportLoader, `/report?id=${id}`);
      expect(r.status).toBe(404);
      expect(await r.text()).toBe("Report not found.");
      expect((await call<Response>(chartLoader, `/resources/report-chart?id=${id}&chart=bar`)).status).toBe(404);
    }
  });

  it("serves the stored charts as SVG images", async () => {
    for (const chart of ["bar", "pie"]) {
      const r = await call<Response>(chartLoader, `/resources/report-chart?id=${reportId}&chart=${chart}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("Content-Type")).toBe("image/svg+xml; charset=utf-8");
      expect(await r.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  });

  it("unsubscribes with a POST from the confirmation page only; GET and a forged signature change nothing", async () => {
    const link = new URL(unsubscribeUrl("http://localhost", SECRET, family.parent.id));
    const page = (await (await call<Response>(unsubscribeLoader, `${link.pathname}${link.search}`)).json()) as { ok: boolean };
    expect(page.ok).toBe(true);
    const typeOf = async () =>
      (await t.db.selectFrom("parents").select("kids_report_type").where("id", "=", family.parent.id).executeTakeFirstOrThrow())
        .kids_report_type;
    expect(await typeOf()).toBe("Weekly");
    const post = (parent: string, sig: string) =>
      call<Response>(unsubscribeAction, link.pathname, {
        method: "POST",
        body: new URLSearchParams({ parent, sig }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    const forged = await post(other.parent.id, link.searchParams.get("sig")!);
    expect(forged.status).toBe(400);
    expect(
      (await t.db.selectFrom("parents").select("kids_report_type").where("id", "=", other.parent.id).executeTakeFirstOrThrow())
        .kids_report_type,
    ).toBe("Weekly");
    const ok = await post(family.parent.id, link.searchParams.get("sig")!);
    expect(((await ok.json()) as { done: boolean }).done).toBe(true);
    expect(await typeOf()).toBe("Off");
  });
});
