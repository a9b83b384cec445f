import { createCookie, redirect, type AppLoadContext } from "@remix-run/node";
import { canAccessKid } from "../../db/queries/access";
import { createSession, findLiveSessionParent, revokeSession } from "../../db/queries/sessions";
import type { Parent } from "../../db/schema";
import { env } from "./env.server";
import { perRequest } from "./request-memo.server";

interface Args {
  request: Request;
  context: AppLoadContext;
}

export const PUBLIC_PATHS = ["/login", "/registration", "/password/set", "/verify-otp", "/forget-password", "/reset-password"];

let cookie: ReturnType<typeof createCookie> | undefined;
export function sessionCookie() {
  const e = env();
  cookie ??= createCookie("kp_session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: e.SECURE_COOKIES || e.NODE_ENV === "production",
    maxAge: e.SESSION_ABSOLUTE_DAYS * 86_400,
  });
  return cookie;
}

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
  const value = await sessionCookie().parse(cookieHeader);
  return typeof value === "string" && value ? value : null;
}

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
  return auth;
}

export async function requireOperator(args: Args): Promise<Authenticated> {
  const auth = await requireParent(args);
  if (auth.parent.role !== "operator") throw new Response("Operators only.", { status: 403 });
  return auth;
}

/** A parent acting on a kid: own kid, or delegated to them and accepted. Others get a 404 that reveals nothing. */
export async function requireKidAccess(args: Args, profileId: string | null | undefined): Promise<Authenticated> {
  const auth = await requireParent(args);
  if (!profileId || !(await canAccessKid(args.context.services.db, auth.parent, profileId))) {
    throw new Response("Kid not found.", { status: 404 });
  }
  return auth;
}

/** Only same-site relative paths, so a crafted redirectTo cannot send a parent elsewhere. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/kids-device"): string {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

export async function startSession(args: Args, parentId: string): Promise<{ token: string; setCookie: string }> {
  const { request, context } = args;
  const token = await createSession(context.services.db, parentId, policy(context), {
    userAgent: request.headers.get("User-Agent"),
    ip: request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? null,
  });
  return { token, setCookie: await sessionCookie().serialize(token) };
}

export async function endSession(args: Args): Promise<string> {
  const token = await readToken(args.request);
  if (token) await revokeSession(args.context.services.db, token);
  return sessionCookie().serialize("", { maxAge: 0 });
}
