import { redirect, type AppLoadContext } from "@remix-run/node";
import { sessionCookie } from "#core/session-cookie.server";
import { findAccessibleKid } from "#db/queries/access";
import { createSession, findLiveSessionParent, hashToken, revokeSession } from "#db/queries/sessions";
import type { Parent } from "#db/schema";
import { env, publicOrigin } from "#core/env.server";
import { perRequest } from "./request-memo.server";
import { endStreams } from "./sse.server";
import { CLIENT_IP_HEADER } from "./security.server";
import { setBounded } from "#core/bounded";

interface Args {
  request: Request;
  context: AppLoadContext;
}

export const PUBLIC_PATHS = ["/login", "/registration", "/password/set", "/verify-otp", "/forget-password", "/reset-password"];

function policy(context: AppLoadContext) {
  const e = context.services.env;
  return { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteDays: e.SESSION_ABSOLUTE_DAYS };
}

/** The session token from the cookie, or from `Authorization: Bearer` (the mobile wrapper). */
export function readToken(request: Request): Promise<string | null> {
  return tokenFromHeaders(request.headers.get("Authorization"), request.headers.get("Cookie"));
}

/** The same, from raw header values (the page cache reads them before Remix builds a Request). */
export async function tokenFromHeaders(authorization: string | null, cookieHeader: string | null): Promise<string | null> {
  if (authorization?.startsWith("Bearer ")) return authorization.slice(7).trim() || null;
  if (!cookieHeader) return null;
  const known = cookiesRead.get(cookieHeader);
  if (known !== undefined) return known;
  const value = await sessionCookie().parse(cookieHeader);
  const token = typeof value === "string" && value ? value : null;
  if (cookieHeader.length <= COOKIES_READ_MAX_LENGTH) setBounded(cookiesRead, cookieHeader, token, COOKIES_READ_MAX);
  return token;
}

/**
 * Cookie headers already decoded, and the token each holds (null: none). Remix's decoding (base64, a character-by-
 * character unescape, JSON) was 5–8 % of a cached dashboard view's CPU, for the same header on every request of a
 * browser. The token is a function of the header alone; whether its session is live is checked every time, after.
 * Bounded: the oldest header out first; headers longer than 1 KB are not kept.
 */
const cookiesRead = new Map<string, string | null>();
const COOKIES_READ_MAX = 1_000;
const COOKIES_READ_MAX_LENGTH = 1_024;

export interface Authenticated {
  parent: Parent;
  token: string;
}

export function getParent({ request, context }: Args): Promise<Authenticated | null> {
  return perRequest({ request, context }, "parent", () => lookupParent(request, context));
}

async function lookupParent(request: Request, context: AppLoadContext): Promise<Authenticated | null> {
  const token = await readToken(request);
  if (!token) return null;
  const parent = await findLiveSessionParent(context.services.db, token, policy(context));
  return parent ? { parent, token } : null;
}

/** Where the guard sends a visitor without a live session: /login, remembering the page for afterwards. */
export function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  const params = new URLSearchParams();
  if (here !== "/" && here !== "/kids-device") params.set("redirectTo", here);
  const headers = new Headers();
  return redirect(`/login${params.size ? `?${params}` : ""}`, { headers });
}

/** First line of every guarded loader and action. */
export async function requireParent(args: Args): Promise<Authenticated> {
  const auth = await getParent(args);
  if (!auth) throw loginRedirect(args.request);
  args.context.guarded = true;
  return auth;
}

export async function requireOperator(args: Args): Promise<Authenticated> {
  const auth = await requireParent(args);
  if (auth.parent.role !== "operator") {
    args.context.services.log("warn", "operator-only page refused", { parentId: auth.parent.id, path: new URL(args.request.url).pathname });
    throw new Response("Operators only.", { status: 403 });
  }
  return auth;
}

/**
 * A parent acting on a kid: own kid, or delegated to them and accepted. Others get a 404 that reveals nothing.
 * The kid's row comes with the check (one statement).
 */
export async function requireKidAccess(args: Args, profileId: string | null | undefined): Promise<Authenticated & { kid: AccessibleKid }> {
  const auth = await requireParent(args);
  const kid = profileId ? await findAccessibleKid(args.context.services.db, auth.parent, profileId) : undefined;
  if (!kid) throw new Response("Kid not found.", { status: 404 });
  return { ...auth, kid };
}

type AccessibleKid = NonNullable<Awaited<ReturnType<typeof findAccessibleKid>>>;

/** Characters a browser strips or rewrites in a URL (tab, newline, other controls; a backslash reads as "/"). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const UNSAFE_IN_TARGET = /[\u0000-\u001f\u007f\\]/;

/**
 * The one check for every redirectTo / to / next parameter that is followed: the target is resolved against
 * the portal's own origin and only a path on that origin is accepted (returned normalised); anything else —
 * `//x`, `/\x`, `/<tab>/x`, `https:x`, `javascript:`, percent-encoded slashes or controls — gives the fallback.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/kids-device"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2048) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    return fallback;
  }
  // Checked raw and decoded once, so a target that is decoded again on its way (a query parameter) is safe too.
  for (const form of [to, decoded]) {
    if (!form.startsWith("/") || form.startsWith("//") || UNSAFE_IN_TARGET.test(form)) return fallback;
  }
  const origin = publicOrigin(env());
  let url: URL;
  try {
    url = new URL(to, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? fallback : path;
}

export async function startSession(args: Args, parentId: string): Promise<{ token: string; setCookie: string }> {
  const { request, context } = args;
  const token = await createSession(context.services.db, parentId, policy(context), {
    userAgent: request.headers.get("User-Agent"),
    // The client address as Express resolved it with TRUST_PROXY (req.ip), never a raw X-Forwarded-For.
    ip: request.headers.get(CLIENT_IP_HEADER) ?? null,
  });
  return { token, setCookie: await sessionCookie().serialize(token) };
}

export async function endSession(args: Args): Promise<string> {
  const token = await readToken(args.request);
  if (token) {
    await revokeSession(args.context.services.db, token);
    await endStreams(args.context.services, { sessionIds: [hashToken(token)] }, "signed-out");
  }
  return sessionCookie().serialize("", { maxAge: 0 });
}
