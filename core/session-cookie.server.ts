import { createCookie } from "@remix-run/node";
import { env } from "./env.server";

/**
 * The parent's session cookie (`kp_session`, the session token): its name and format are shared by the web
 * app (sign-in, sign-out, the page cache) and the device service (/trpc and /device-api read the parent from it).
 */
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
