import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigninToken, setTwoStep } from "#db/queries/accounts";
import { createParent, findParentById } from "#db/queries/parents";
import { createSession, findLiveSession } from "#db/queries/sessions";
import { createTestDb, type TestDb } from "#db/index.testing";
import { sessionCookie } from "#core/session-cookie.server";
import { parseEnv } from "#core/env.server";
import { LINK_MESSAGES, newLink } from "~/utils/links.server";
import { action, loader } from "./_auth.login";

// No login CSRF: a GET of a link that signs someone in (one-time token, email verification) only shows whose
// account it is; signing in takes a POST from the page's Continue button.
describe("sign-in links ask before signing anyone in", () => {
  let t: TestDb;
  let env: ReturnType<typeof parseEnv>;
  const POLICY = { idleMinutes: 60, absoluteDays: 1 };
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    env = parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-login-links-test", SESSION_SECRET: "l".repeat(40) });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  // A load context per request, as the server makes one.
  const context = () => ({ services: { env, db: t.db, log: () => {} }, cspNonce: "n" }) as unknown as AppLoadContext;
  const get = async (query: string, cookie?: string) => {
    const res = (await loader({
      request: new Request(`http://localhost/login?${query}`, { headers: cookie ? { Cookie: cookie } : {} }),
      context: context(),
      params: {},
    })) as Response;
    return {
      res,
      data: (await res.json()) as {
        confirm: null | { email: string; signedInAs: string | null; fields: Record<string, string> };
        notice: string | null;
      },
    };
  };
  const post = (fields: Record<string, string>, cookie?: string) =>
    action({
      request: new Request("http://localhost/login", {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { "x-kp-client-ip": "5.5.5.5", ...(cookie ? { Cookie: cookie } : {}) },
      }),
      context: context(),
      params: {},
    }) as Promise<Response>;
  const sessionCookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("kp_session="));
  let n = 0;
  const parent = async () =>
    createParent(t.db, { email: `link-${++n}@example.com`, name: `Parent ${n}`, passwordHash: null, emailVerified: false });
  const signedIn = async (parentId: string) => {
    const token = await createSession(t.db, parentId, POLICY);
    return { token, cookie: (await sessionCookie().serialize(token)).split(";")[0] };
  };

  it("GET /login?token=… names the account and asks to continue; nobody is signed in and the token still works", async () => {
    const p = await parent();
    const { token } = await createSigninToken(t.db, p.id, 120_000);
    const { res, data } = await get(`token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(data.confirm).toEqual({ email: p.email, signedInAs: null, fields: { intent: "link-signin", token } });

    const continued = await post(data.confirm!.fields);
    expect(continued.status).toBe(302);
    expect(continued.headers.get("Location")).toMatch(/^\/users\/handoff\?to=/);
    const cookie = sessionCookieOf(continued)!;
    const sessionToken = await sessionCookie().parse(cookie.split(";")[0]);
    expect((await findLiveSession(t.db, sessionToken as string, POLICY))?.parent_id).toBe(p.id);

    // Used once: a second Continue (or a second visit) is refused with the clear message.
    const again = await post(data.confirm!.fields);
    expect(sessionCookieOf(again)).toBeUndefined();
    const after = await get(new URL(again.headers.get("Location")!, "http://localhost").search.slice(1));
    expect(after.data.notice).toBe("This sign-in link has expired or was already used. Please sign in.");
    expect((await get(`token=${encodeURIComponent(token)}`)).data.notice).toBe(
      "This sign-in link has expired or was already used. Please sign in.",
    );
  });

  it("GET of an email-verification link neither verifies nor signs in; Continue (POST) does both", async () => {
    const p = await parent();
    const link = newLink(env.SESSION_SECRET, { parentId: p.id, purpose: "verify-email" });
    const { res, data } = await get(`iv=${link.iv}&encryptedData=${link.encryptedData}`);
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(data.confirm).toEqual({
      email: p.email,
      signedInAs: null,
      fields: { intent: "link-signin", iv: link.iv, encryptedData: link.encryptedData },
    });
    expect((await findParentById(t.db, p.id))?.email_verified_at).toBeNull();

    const continued = await post(data.confirm!.fields);
    expect(sessionCookieOf(continued)).toBeDefined();
    expect((await findParentById(t.db, p.id))?.email_verified_at).not.toBeNull();
    const again = await post(data.confirm!.fields);
    expect(sessionCookieOf(again)).toBeUndefined();
    expect((await get(new URL(again.headers.get("Location")!, "http://localhost").search.slice(1))).data.notice).toBe(LINK_MESSAGES.used);
  });

  it("another parent signed in: the page says so and keeps that session; only Continue replaces it", async () => {
    const victim = await parent();
    const attacker = await parent();
    const current = await signedIn(victim.id);
    const { token } = await createSigninToken(t.db, attacker.id, 120_000);
    const { res, data } = await get(`token=${encodeURIComponent(token)}`, current.cookie);
    expect(res.status).toBe(200);
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(data.confirm).toMatchObject({ email: attacker.email, signedInAs: victim.email });
    expect(await findLiveSession(t.db, current.token, POLICY)).toBeDefined();

    // The person chooses to continue: the previous session ends, the new one starts.
    const continued = await post(data.confirm!.fields, current.cookie);
    expect(sessionCookieOf(continued)).toBeDefined();
    expect(await findLiveSession(t.db, current.token, POLICY)).toBeUndefined();
  });

  it("a bad link shows the clear message and no Continue", async () => {
    const { data } = await get("iv=AAAAAAAAAAAAAAAA&encryptedData=BBBB");
    expect(data.confirm).toBeNull();
    expect(data.notice).toBe(LINK_MESSAGES.invalid);
  });

  it("two-step verification still applies after Continue", async () => {
    const p = await parent();
    await setTwoStep(t.db, p.id, true);
    const { token } = await createSigninToken(t.db, p.id, 120_000);
    const continued = await post({ intent: "link-signin", token });
    expect(continued.headers.get("Location")).toMatch(/^\/verify-otp\?email=/);
    expect(sessionCookieOf(continued)).toBeUndefined();
  });
});
