import { randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { env } from "#core/env.server";
import { normalizeEmail } from "#db/queries/parents";

/**
 * OWASP's device cookies (Slow Down Online Guessing Attacks with Device Cookies): after a successful sign-in the
 * browser gets a signed cookie naming the account, with a random nonce. A failed sign-in (or wrong two-step code)
 * from a browser that shows a valid device cookie for that account counts against that cookie's own allowance;
 * failures from any other client count against the account's allowance for untrusted clients. A stranger can
 * therefore exhaust only the untrusted allowance: the parent's known browser still signs in.
 *
 * One cookie holds the entries of the last DEVICE_ACCOUNTS_MAX accounts signed in on this browser, each valid
 * DEVICE_COOKIE_DAYS from its sign-in (checked from the signed issue time, not only by the browser's Max-Age).
 */
export const DEVICE_COOKIE_DAYS = 90;
const DEVICE_ACCOUNTS_MAX = 5;
const DAY = 86_400_000;

interface DeviceEntry {
  /** the account's normalised email */
  e: string;
  /** the nonce: names this browser's allowance for the account */
  n: string;
  /** issued at (ms since the epoch) */
  t: number;
}

let cookie: ReturnType<typeof createCookie> | undefined;
function deviceCookie() {
  const e = env();
  cookie ??= createCookie("kp_device", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: e.SECURE_COOKIES || e.NODE_ENV === "production",
    maxAge: DEVICE_COOKIE_DAYS * 86_400,
    secrets: [e.SESSION_SECRET],
  });
  return cookie;
}

function isEntry(v: unknown): v is DeviceEntry {
  if (!v || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  return typeof o.e === "string" && typeof o.n === "string" && /^[\w-]{16,64}$/.test(o.n) && typeof o.t === "number";
}

/** The live entries of the request's device cookie (an unsigned, tampered or foreign cookie has none). */
async function entries(request: Request, now: number): Promise<DeviceEntry[]> {
  let value: unknown;
  try {
    value = await deviceCookie().parse(request.headers.get("Cookie"));
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.filter(isEntry).filter((x) => x.t <= now && now - x.t < DEVICE_COOKIE_DAYS * DAY);
}

/** The nonce of this browser's device cookie for `email`, or null: the browser is an untrusted client for it. */
export async function trustedDevice(request: Request, email: string, now = Date.now()): Promise<string | null> {
  const key = normalizeEmail(email);
  return (await entries(request, now)).find((x) => x.e === key)?.n ?? null;
}

/** The Set-Cookie of a successful sign-in to `email`: a fresh entry (new nonce, new allowance) for it, others kept. */
export async function deviceCookieAfterSignIn(request: Request, email: string, now = Date.now()): Promise<string> {
  const key = normalizeEmail(email);
  const others = (await entries(request, now)).filter((x) => x.e !== key);
  const fresh: DeviceEntry = { e: key, n: randomBytes(16).toString("base64url"), t: now };
  return deviceCookie().serialize([fresh, ...others].slice(0, DEVICE_ACCOUNTS_MAX));
}
