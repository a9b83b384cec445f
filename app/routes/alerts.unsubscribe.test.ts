import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "#core/env.server";
import { unsubscribeUrl } from "#core/report-unsubscribe";
import { readAlertSettings } from "#db/queries/alerts";
import { createParent } from "#db/queries/parents";
import { createTestDb, type TestDb } from "#db/index.testing";
import { action, loader } from "./alerts.unsubscribe";

const SECRET = "y".repeat(40);

describe("/alerts/unsubscribe", () => {
  let t: TestDb;
  let context: AppLoadContext;
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-alert-unsub-test", SESSION_SECRET: SECRET });
    context = { services: { env, db: t.db, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const call = async (fn: (a: never) => Promise<unknown>, path: string, init?: RequestInit) =>
    (await fn({ request: new Request(`http://localhost${path}`, init), context, params: {} } as never)) as Response;

  it("turns every alert e-mail off with a POST from the confirmation page only; GET, a report link and a forged signature change nothing", async () => {
    const parent = await createParent(t.db, { email: "u@family.example", name: "Uma", passwordHash: "x", emailVerified: true });
    const other = await createParent(t.db, { email: "o@family.example", name: "Oli", passwordHash: "x", emailVerified: true });
    const link = new URL(unsubscribeUrl("http://localhost", SECRET, parent.id, "alerts"));
    expect(link.pathname).toBe("/alerts/unsubscribe");
    expect(((await (await call(loader, `${link.pathname}${link.search}`)).json()) as { ok: boolean }).ok).toBe(true);
    const emailOn = async (id: string) => Object.values((await readAlertSettings(t.db, id)).switches).some((c) => c.email);
    expect(await emailOn(parent.id)).toBe(true);
    const post = (p: string, sig: string) =>
      call(action, link.pathname, {
        method: "POST",
        body: new URLSearchParams({ parent: p, sig }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    expect((await post(other.id, link.searchParams.get("sig")!)).status).toBe(400);
    const report = new URL(unsubscribeUrl("http://localhost", SECRET, parent.id, "report"));
    expect((await post(parent.id, report.searchParams.get("sig")!)).status).toBe(400);
    expect(await emailOn(parent.id)).toBe(true);
    expect(await emailOn(other.id)).toBe(true);
    const ok = await post(parent.id, link.searchParams.get("sig")!);
    expect(((await ok.json()) as { done: boolean }).done).toBe(true);
    expect(await emailOn(parent.id)).toBe(false);
  });
});
