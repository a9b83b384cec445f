import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParent } from "#db/queries/parents";
import { createSession } from "#db/queries/sessions";
import { createTestDb, type TestDb } from "#db/index.testing";
import { sessionCookie } from "#core/session-cookie.server";
import { parseEnv } from "#core/env.server";
import { handoffCookie } from "~/utils/signin.server";
import { loader } from "./users.handoff";

// /users/handoff?to= follows its target only for a signed-in parent, and only to a path of the portal.
describe("/users/handoff", () => {
  let t: TestDb;
  let context: AppLoadContext;
  let session: string;
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-handoff-test", SESSION_SECRET: "h".repeat(40) });
    context = { services: { env, db: t.db, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
    const parent = await createParent(t.db, { email: "handoff@example.com", name: "Handoff", passwordHash: null });
    session = (await sessionCookie().serialize(await createSession(t.db, parent.id, { idleMinutes: 60, absoluteDays: 1 }))).split(";")[0];
  });
  afterAll(async () => {
    await t?.destroy();
  });

  // A load context per request, as the server makes one (the signed-in parent is memoised on it).
  const visit = (to: string, cookie?: string) =>
    loader({
      request: new Request(`http://localhost/users/handoff?to=${encodeURIComponent(to)}`, { headers: cookie ? { Cookie: cookie } : {} }),
      context: { ...context },
      params: {},
    });

  it.each(["/account", "https://evil.example/", "//evil.example", "/\t/evil.example"])(
    "does not redirect to %j without a sign-in",
    async (to) => {
      const res = await visit(to);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/login");
    },
  );

  it("a signed-in parent goes on to a path of the portal", async () => {
    const res = await visit("/account?x=1", session);
    expect(res.headers.get("Location")).toBe("/account?x=1");
  });

  it.each(["https://evil.example/", "//evil.example", "/\t/evil.example", "/%09/evil.example", "/\\evil.example"])(
    "a signed-in parent is never sent off-site by %j",
    async (to) => {
      const res = await visit(to, session);
      expect(res.headers.get("Location")).toBe("/kids-device");
    },
  );

  it("right after sign-in (the hand-off cookie) the page hands over the token and names only a safe target", async () => {
    const flag = (await handoffCookie().serialize("1")).split(";")[0];
    const res = await visit("//evil.example", `${session}; ${flag}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("/kids-device");
    expect(html).not.toContain("evil.example");
  });
});
