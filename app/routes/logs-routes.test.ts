import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../server/harness.testing";
import { parseEnv } from "#core/env.server";
import * as browserLogs from "./_app.browser-logs";
import * as deviceLogs from "./_app.device-logs";
import * as serverLogs from "./_app.server-logs";
import * as logFile from "./kids.$file";

const DATA_DIR = mkdtempSync(path.join(tmpdir(), "kids-portal-logs-routes-"));
process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.DATA_DIR ??= DATA_DIR;

const LEO = "DEMO-LEO-0002";

/** Runs a loader or action; a thrown Response (guards) comes back as the Response. */
async function run(fn: () => Promise<unknown>): Promise<Response> {
  try {
    return (await fn()) as Response;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
}

describe("log pages: who may see and do what", () => {
  let h: Harness;
  let context: AppLoadContext;
  const tokens: Record<"demo" | "other" | "operator", string> = { demo: "", other: "", operator: "" };
  let leoProfile = "";
  const today = new Date().toISOString().slice(0, 10);
  const logName = `${today}-web-4242.log`;

  beforeAll(async () => {
    h = await startHarness();
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR, SESSION_SECRET: "x".repeat(40) });
    context = { services: { env, db: h.tdb.db, device: h.caller, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
    tokens.demo = await h.sessionFor(h.demo.id);
    tokens.other = await h.sessionFor(h.other.id);
    tokens.operator = await h.sessionFor(h.operator.id);
    leoProfile = (await h.kid(LEO)).profileId;
    mkdirSync(path.join(DATA_DIR, "logs"), { recursive: true });
    writeFileSync(path.join(DATA_DIR, "logs", logName), '{"msg":"server started"}\n');
    writeFileSync(path.join(DATA_DIR, "secret.txt"), "not a log\n");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const req = (url: string, who: keyof typeof tokens, init: RequestInit = {}) =>
    new Request(`http://localhost${url}`, {
      ...init,
      headers: { Authorization: `Bearer ${tokens[who]}`, ...(init.body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
    });
  const post = (body: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(body).toString() });

  it("/server-logs lists today's file for an operator; a parent gets 403", async () => {
    const ok = await run(() => serverLogs.loader({ request: req("/server-logs", "operator"), context: { ...context }, params: {} }));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { files: { name: string }[] }).files.map((f) => f.name)).toContain(logName);
    expect((await run(() => serverLogs.loader({ request: req("/server-logs", "demo"), context: { ...context }, params: {} }))).status).toBe(
      403,
    );
  });

  it("/kids/{file} streams the file to an operator, 403 to a parent", async () => {
    const ok = await run(() =>
      logFile.loader({ request: req(`/kids/${logName}`, "operator"), context: { ...context }, params: { file: logName } }),
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await ok.text()).toBe('{"msg":"server started"}\n');
    expect(
      (await run(() => logFile.loader({ request: req(`/kids/${logName}`, "demo"), context: { ...context }, params: { file: logName } })))
        .status,
    ).toBe(403);
  });

  it.each([
    "../../etc/passwd",
    "../secret.txt",
    "..%2Fsecret.txt",
    "%2e%2e/secret.txt",
    "secret.txt",
    `${logName}/..`,
    "2001-01-01-web-1.log",
  ])("/kids/%s is a 404", async (file) => {
    const r = await run(() =>
      logFile.loader({ request: req(`/kids/${encodeURIComponent(file)}`, "operator"), context: { ...context }, params: { file } }),
    );
    expect(r.status).toBe(404);
  });

  it("browser and device logs: the own family's pages load", async () => {
    const qs = `?profileId=${leoProfile}&serialNumber=${LEO}`;
    const b = await run(() =>
      browserLogs.loader({ request: req(`/browser-logs${qs}&filterByStatus=block`, "demo"), context: { ...context }, params: {} }),
    );
    expect(b.status).toBe(200);
    expect(await b.json()).toMatchObject({ status: "block", canUnblockAll: false, list: [] });
    const d = await run(() => deviceLogs.loader({ request: req(`/device-logs${qs}`, "demo"), context: { ...context }, params: {} }));
    expect(d.status).toBe(200);
  });

  it("/device-logs with many logs in a day: one page of 20 cards, a link to the next; a page past the end is empty", async () => {
    const { deviceId } = await h.kid(LEO);
    const day = "2026-02-03";
    await h.tdb.db
      .insertInto("device_logs")
      .values(
        Array.from({ length: 45 }, (_, i) => ({
          id: `paged-${i}`,
          device_id: deviceId,
          title: `log ${i}`,
          details: JSON.stringify({ payload: "z".repeat(2_000) }),
          device_time: null,
          created_at: `${day}T09:${String(i).padStart(2, "0")}:00.000Z`,
        })),
      )
      .execute();
    const load = async (extra: string) => {
      const qs = `?profileId=${leoProfile}&serialNumber=${LEO}&currentDate=${day}${extra}`;
      const r = await run(() => deviceLogs.loader({ request: req(`/device-logs${qs}`, "demo"), context: { ...context }, params: {} }));
      expect(r.status).toBe(200);
      return (await r.json()) as { page: number; logs: { title: string }[]; newerHref: string | null; olderHref: string | null };
    };
    const first = await load("");
    expect(first.logs).toHaveLength(20);
    expect(first.page).toBe(1);
    expect(first.newerHref).toBeNull();
    expect(first.olderHref).toBe(`/device-logs?profileId=${leoProfile}&serialNumber=${LEO}&currentDate=${day}&logsPage=2#fetch-title`);
    const last = await load("&logsPage=3");
    expect(last.logs.map((l) => l.title)).toEqual(["log 4", "log 3", "log 2", "log 1", "log 0"]);
    expect(last.olderHref).toBeNull();
    expect(last.newerHref).toBe(`/device-logs?profileId=${leoProfile}&serialNumber=${LEO}&currentDate=${day}&logsPage=2#fetch-title`);
    expect((await load("&logsPage=9")).logs).toEqual([]);
    // Not a page number: the first page.
    expect((await load("&logsPage=-1")).page).toBe(1);
    expect((await load("&logsPage=abc")).page).toBe(1);
  });

  it("/browser-logs with many addresses in a day: one page of 50, a link to the next and back; a bad page is the first", async () => {
    const { deviceId } = await h.kid(LEO);
    const day = "2026-02-04";
    const ts = `${day}T09:00:00.000Z`;
    await h.tdb.db
      .insertInto("browser_logs")
      .values(
        Array.from({ length: 70 }, (_, i) => ({
          id: `addr-${i}`,
          device_id: deviceId,
          url: `a${i}.example.org`,
          day,
          visits: 1,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
    const base = `/browser-logs?profileId=${leoProfile}&serialNumber=${LEO}&currentDate=${day}`;
    const load = async (extra: string) => {
      const r = await run(() => browserLogs.loader({ request: req(`${base}${extra}`, "demo"), context: { ...context }, params: {} }));
      expect(r.status).toBe(200);
      return (await r.json()) as { page: number; list: unknown[]; newerHref: string | null; olderHref: string | null; prevHref: string };
    };
    const first = await load("");
    expect(first.list).toHaveLength(50);
    expect(first.olderHref).toBe(`${base}&page=2#list-title`);
    expect(first.newerHref).toBeNull();
    const second = await load("&page=2");
    expect(second.list).toHaveLength(20);
    expect(second).toMatchObject({ page: 2, olderHref: null, newerHref: `${base}#list-title` });
    expect(second.prevHref).not.toContain("page=");
    expect((await load("&page=zz")).page).toBe(1);
  });

  it("another family's ids are refused on every loader and action, nothing changes", async () => {
    const qs = `?profileId=${leoProfile}&serialNumber=${LEO}`;
    const before = await h.tdb.db.selectFrom("device_commands").select("id").execute();
    const blockedBefore = await h.tdb.db.selectFrom("browser_logs").select("id").where("is_blocked", "=", 1).execute();
    const attempts: (() => Promise<unknown>)[] = [
      () => browserLogs.loader({ request: req(`/browser-logs${qs}`, "other"), context: { ...context }, params: {} }),
      () =>
        browserLogs.action({
          request: req(`/browser-logs${qs}`, "other", post({ intent: "add", url: "evil.test", status: "block" })),
          context: { ...context },
          params: {},
        }),
      () =>
        browserLogs.action({
          request: req(`/browser-logs${qs}`, "other", post({ intent: "toggle", id: "x", isBlocked: "true" })),
          context: { ...context },
          params: {},
        }),
      () =>
        browserLogs.action({
          request: req(`/browser-logs${qs}`, "other", post({ intent: "unblock-all" })),
          context: { ...context },
          params: {},
        }),
      () => deviceLogs.loader({ request: req(`/device-logs${qs}`, "other"), context: { ...context }, params: {} }),
      () =>
        deviceLogs.action({ request: req(`/device-logs${qs}`, "other", post({ intent: "fetch" })), context: { ...context }, params: {} }),
      () =>
        deviceLogs.action({
          request: req(
            `/device-logs${qs}`,
            "other",
            post({ intent: "send", action: "Ring a Phone", title: "", message: "", packageName: "" }),
          ),
          context: { ...context },
          params: {},
        }),
      // Their own kid with our phone's serial number.
      () =>
        deviceLogs.action({
          request: req(
            `/device-logs?profileId=${(h.other as { profileId: string }).profileId}&serialNumber=${LEO}`,
            "other",
            post({ intent: "fetch" }),
          ),
          context: { ...context },
          params: {},
        }),
    ];
    for (const a of attempts) expect((await run(a)).status).toBe(404);
    expect(await h.tdb.db.selectFrom("device_commands").select("id").execute()).toHaveLength(before.length);
    expect(await h.tdb.db.selectFrom("browser_logs").select("id").where("is_blocked", "=", 1).execute()).toHaveLength(blockedBefore.length);
  });

  it("a refused command from the form says 'Failed to send command.' with the reason", async () => {
    const qs = `?profileId=${leoProfile}&serialNumber=${LEO}`;
    const r = await run(() =>
      deviceLogs.action({
        request: req(`/device-logs${qs}`, "demo", post({ intent: "send", action: "disable_app", title: "", message: "", packageName: "" })),
        context: { ...context },
        params: {},
      }),
    );
    expect(r.status).toBe(302);
    const { readToast } = await import("~/utils/toast.server");
    const cookie = (r.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    expect((await readToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast).toEqual({
      type: "error",
      message: "Failed to send command. Please enter the package name of the app.",
    });
  });
});
