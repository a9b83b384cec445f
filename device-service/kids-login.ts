import type { Request, RequestHandler, Response } from "express";
import { z } from "zod";
import { canAccessKid } from "../db/queries/access";
import { listKidsForParent } from "../db/queries/kids";
import { addToOutbox } from "../db/queries/accounts";
import { findParentByEmail } from "../db/queries/parents";
import type { Env } from "../core/env.server";
import { deliverMail, mails } from "../core/mail.server";
import { OTP_MESSAGES, startOtp, verifyOtp } from "../db/queries/otp";
import { verifyPassword } from "../core/password.server";
import { ACCOUNT_LOCK_MESSAGE, RATE_LIMIT_MESSAGE, accountLocked, allowAddress, recordFailedLogin } from "../db/queries/rate-limits";
import type { DeviceServiceDeps } from "./context";
import { createEnrollmentToken } from "./enrollment";

/** What the kids app's login needs from the environment: the web sign-in's limits, its OTP key, mail. */
export type KidsLoginEnv = Pick<
  Env,
  | "RATE_LIMIT_IP_PER_MINUTE"
  | "RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR"
  | "SESSION_SECRET"
  | "SMTP_URL"
  | "MAIL_FROM"
  | "NODE_ENV"
  | "DEV_MAILBOX"
>;

export interface KidsLoginOptions {
  env: KidsLoginEnv;
  /** The clock of the rate-limit windows (tests fix it). */
  now?: () => Date;
}

export const OTP_REQUIRED_MESSAGE = "We emailed you a 4-digit code. Enter it to continue.";

const LoginBody = z.object({
  email: z.string().email().max(254),
  password: z.string().min(1).max(128),
  profileId: z.string().max(64).optional(),
  /** The emailed two-step code, on the second call. */
  otp: z.string().trim().max(8).optional(),
});

/**
 * POST /device-api/kids/parent/login (spec 1 §6; the API key is checked before). As strong as the web sign-in:
 * the same per-IP counter ("login") and per-account failure counter, the same messages, and two-step
 * verification — the first call answers 401 with `otpRequired` and mails a code; the app calls again with
 * email, password and `otp`.
 */
export function kidsParentLogin(deps: DeviceServiceDeps, o: KidsLoginOptions): RequestHandler {
  const { db } = deps;
  const { env } = o;
  const now = o.now ?? (() => new Date());
  const handle = async (req: Request, res: Response) => {
    const ip = req.ip ?? req.socket.remoteAddress ?? "unknown";
    if (!(await allowAddress(db, env, ip, "login", now()))) {
      res.status(429).json({ respones_msg: RATE_LIMIT_MESSAGE });
      return;
    }
    const body = LoginBody.safeParse(req.body);
    if (!body.success) {
      res.status(400).json({ respones_msg: "Please enter your email and password." });
      return;
    }
    const { email, password, profileId, otp } = body.data;
    if (await accountLocked(db, env, email, now())) {
      res.status(429).json({ respones_msg: ACCOUNT_LOCK_MESSAGE });
      return;
    }
    const parent = await findParentByEmail(db, email);
    if (!(await verifyPassword(parent?.password_hash ?? null, password)) || !parent) {
      await recordFailedLogin(db, email, now());
      res.status(401).json({ respones_msg: "The email or password is not correct." });
      return;
    }
    if (parent.two_step_enabled) {
      if (!otp) {
        // The kids app is an untrusted client (no device cookie): it shares the account's allowance for those.
        const step = await startOtp(db, env.SESSION_SECRET, parent.id, null, now());
        if ("refused" in step) {
          deps.log("info", "two-step code not sent", { parent: parent.id, via: "kids app", reason: step.refused });
          const locked = step.refused === "locked";
          res.status(locked ? 429 : 401).json({ respones_msg: OTP_MESSAGES[step.refused], data: { otpRequired: true } });
          return;
        }
        await deliverMail({ env, log: deps.log, keep: (m) => addToOutbox(db, m) }, mails.otp(parent.email, parent.name, step.code));
        deps.log("info", "two-step code sent", { parent: parent.id, via: "kids app" });
        res.status(401).json({ respones_msg: OTP_REQUIRED_MESSAGE, data: { otpRequired: true } });
        return;
      }
      if (!(await allowAddress(db, env, ip, "otp", now()))) {
        res.status(429).json({ respones_msg: RATE_LIMIT_MESSAGE });
        return;
      }
      const checked = await verifyOtp(db, env.SESSION_SECRET, parent.id, otp, now(), null);
      if (!checked.ok) {
        const message = checked.reason === "wrong" ? OTP_MESSAGES.wrong(checked.triesLeft) : OTP_MESSAGES[checked.reason];
        res.status(checked.reason === "locked" ? 429 : 401).json({ respones_msg: message, data: { otpRequired: true } });
        return;
      }
    }
    const kids = await listKidsForParent(db, parent);
    let enrollment: { token: string; expiresAt: string } | null = null;
    if (profileId) {
      if (!(await canAccessKid(db, parent, profileId))) {
        res.status(404).json({ respones_msg: "We couldn't find this kid in your account." });
        return;
      }
      enrollment = await createEnrollmentToken(db, { profileId, parentId: parent.id });
    }
    res.json({
      respones_msg: "Signed in.",
      data: { parentName: parent.name, kidsList: kids.map((k) => ({ _id: k.id, profile_name: k.name })), enrollment },
    });
  };
  return (req, res, next) => {
    handle(req, res).catch(next);
  };
}
