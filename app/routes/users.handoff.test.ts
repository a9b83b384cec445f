import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createParent, findParentById } from "#db/queries/parents";
import { createSession } from "#db/queries/sessions";
import { createTestDb, type TestDb } from "#db/index.testing";
import { sessionCookie } from "#core/session-cookie.server";
import { parseEnv } from "#core/env.server";
import { finishSignIn } from "~/utils/signin.server";
import { loader } from "./users.handoff";

// /users/handoff?to= follows its target only for a signed-in parent, and only to a path of the portal.
describe("/users/handoff", () => {
  let t: TestDb;
  let context: AppLoadContext;
  let session: string;
  let parentId: string;
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-handoff-test", SESSION_SECRET: "h".repeat(40) });
    context = { services: { env, db: t.db, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
    const parent = await createParent(t.db, { email: "handoff@example.com", name: "Handoff", passwordHash: null });
    parentId = parent.id;
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
    const mine = await signIn();
    const res = await visit("//evil.example", `${mine.session}; ${mine.flag}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("/kids-device");
    expect(html).not.toContain("evil.example");
  });

  /** A real sign-in's answer (as every sign-in ends): its session cookie and its hand-off cookie. */
  const signIn = async () => {
    const parent = (await findParentById(t.db, parentId))!;
    const res = await finishSignIn(
      { request: new Request("http://localhost/login", { method: "POST" }), context: { ...context } },
      parent,
      "/account",
    );
    const cookie = (name: string) =>
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith(`${name}=`))!
        .split(";")[0]!;
    return { session: cookie("kp_session"), flag: cookie("kp_handoff") };
  };

  it("the hand-off cookie is bound to its sign-in's session: carried to another session, it hands over nothing", async () => {
    const mine = await signIn();
    const own = await visit("/account", `${mine.session}; ${mine.flag}`);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("kpHandoff(");

    // The same parent's other session (another browser, or a session fixed on this one) with this cookie.
    const other = await visit("/account", `${session}; ${mine.flag}`);
    expect(other.status).toBe(302);
    expect(other.headers.get("Location")).toBe("/account");
    // And a cookie made for another session's sign-in, whatever it claims, is worth nothing here either.
    const theirs = await signIn();
    expect((await visit("/account", `${mine.session}; ${theirs.flag}`)).status).toBe(302);
  });

  it("the hand-off cookie expires two minutes after the sign-in, whatever the browser keeps", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const mine = await signIn();
      vi.setSystemTime(Date.now() + 119_000);
      expect((await visit("/account", `${mine.session}; ${mine.flag}`)).status).toBe(200);
      vi.setSystemTime(Date.now() + 2_000);
      const late = await visit("/account", `${mine.session}; ${mine.flag}`);
      expect(late.status).toBe(302);
      expect(late.headers.get("Location")).toBe("/account");
    } finally {
      vi.useRealTimers();
    }
  });
});
