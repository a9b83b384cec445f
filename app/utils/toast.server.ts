import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import { env } from "#core/env.server";

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

export async function toastHeader(toast: Toast): Promise<string> {
  const s = toastStorage();
  const session = await s.getSession();
  session.flash("toast", toast);
  return s.commitSession(session);
}

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
