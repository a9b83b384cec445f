import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import { env } from "#core/env.server";
import { setBounded } from "#core/bounded";

/** A server message carried through a redirect and shown once as a toast (spec: respones_msg). */
export const ToastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("success"),
  message: z.string(),
});
export type Toast = z.infer<typeof ToastSchema>;

/** The flash cookie carrying a toast; reading it clears it, so such requests are never served from the page cache. */
export const TOAST_COOKIE = "kp_toast";

let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>> | undefined;
function toastStorage() {
  const e = env();
  storage ??= createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
    cookie: {
      name: TOAST_COOKIE,
      sameSite: "lax",
      path: "/",
      httpOnly: true,
      secrets: [e.SESSION_SECRET],
      secure: e.SECURE_COOKIES || e.NODE_ENV === "production",
    },
  });
  return storage;
}

/**
 * The Set-Cookie header carrying a toast. A pure function of the toast (a flash cookie without expiry, signed with
 * the one secret), so the few distinct ones ("Lock command sent to Leo's phone.": one a kid and command) are made
 * once: serialising and signing was 3 % of a Lock post's CPU (a profile of the mixed-load bench). Bounded (500).
 */
export async function toastHeader(toast: Toast): Promise<string> {
  const key = `${toast.type}\u0000${toast.message}`;
  const made = madeHeaders.get(key);
  if (made !== undefined) return made;
  const s = toastStorage();
  const session = await s.getSession();
  session.flash("toast", toast);
  const header = await s.commitSession(session);
  setBounded(madeHeaders, key, header, 500);
  return header;
}
const madeHeaders = new Map<string, string>();

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

export async function readToast(request: Request): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const s = toastStorage();
  const session = await s.getSession(request.headers.get("Cookie"));
  const parsed = ToastSchema.safeParse(session.get("toast"));
  if (!parsed.success) return { toast: null, setCookie: null };
  return { toast: parsed.data, setCookie: await s.commitSession(session) };
}

/**
 * A framed document (the dashboard's map frame: `Sec-Fetch-Dest: iframe`, or `embed=1` for browsers without fetch
 * metadata) shows no toast, so it must not take one: the frame loads beside the page's own reload after an action,
 * and reading the toast there would clear it before the page could show it.
 */
export function isFramedDocument(request: Request): boolean {
  return request.headers.get("Sec-Fetch-Dest") === "iframe" || new URL(request.url).searchParams.get("embed") === "1";
}

/** The root loader's read: the toast for the page, none (left in place) for a framed document. */
export async function readPageToast(request: Request): Promise<{ toast: Toast | null; setCookie: string | null }> {
  return isFramedDocument(request) ? { toast: null, setCookie: null } : readToast(request);
}
