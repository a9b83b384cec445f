import { parseWithZod } from "@conform-to/zod";
import { json, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { findParentById, updateParentPassword } from "#db/queries/parents";
import { revokeAllSessions } from "#db/queries/sessions";
import { markEmailVerified } from "#db/queries/accounts";
import { sessionCookie } from "#core/session-cookie.server";
import { isHoneypotFilled, HONEYPOT_MESSAGE } from "./honeypot";
import { LINK_MESSAGES, checkLink, passwordFingerprint, redeemLink, type LinkPurpose } from "./links.server";
import { hashPassword, passwordProblem } from "#core/password.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "./rate-limit.server";
import { redirectWithToast } from "./toast.server";
import { endStreams } from "./sse.server";

interface Args {
  request: Request;
  context: AppLoadContext;
}

export const PasswordLinkSchema = z.object({
  iv: z.string().optional(),
  encryptedData: z.string().optional(),
  password: z.string({ required_error: "Password is required." }),
  confirm_password: z.string({ required_error: "Please confirm the password." }),
});

/** A link for a password form: valid, unused, and made for the password the account has now. */
export async function checkPasswordLink(args: Args, purpose: LinkPurpose, iv: string | null, encryptedData: string | null) {
  const { db, env } = args.context.services;
  const checked = await checkLink(db, env.SESSION_SECRET, iv, encryptedData, purpose);
  if (!checked.ok) return { ok: false as const, message: LINK_MESSAGES[checked.reason] };
  const parent = await findParentById(db, checked.payload.sub);
  if (!parent) return { ok: false as const, message: LINK_MESSAGES.invalid };
  if (checked.payload.pwv && checked.payload.pwv !== passwordFingerprint(parent.password_hash)) {
    // The password changed since this link was sent: it is spent.
    return { ok: false as const, message: LINK_MESSAGES.used };
  }
  return { ok: true as const, parent, payload: checked.payload };
}

export async function passwordLinkLoader(args: Args, purpose: LinkPurpose) {
  const url = new URL(args.request.url);
  const iv = url.searchParams.get("iv");
  const encryptedData = url.searchParams.get("encryptedData");
  const checked = await checkPasswordLink(args, purpose, iv, encryptedData);
  return json(
    { iv: iv ?? "", encryptedData: encryptedData ?? "", linkError: checked.ok ? null : checked.message },
    { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

/** The answer when a reset link set the password. */
export const PASSWORD_RESET_MESSAGE = "Your password has been changed. Please sign in with your new password.";

/** The new password's problems (the password rules, and the confirmation matching), each with its field. */
export function newPasswordProblems(v: { password: string; confirm_password: string }) {
  const problems: { field: "password" | "confirm_password"; message: string }[] = [];
  const problem = passwordProblem(v.password);
  if (problem) problems.push({ field: "password", message: problem });
  if (v.password !== v.confirm_password)
    problems.push({ field: "confirm_password", message: "Password and confirm password do not match." });
  return problems;
}

/**
 * Sets the password from an emailed link (checked, then spent), ends every session of the account and marks its
 * email verified (the mail reached them): the pages' action and POST /api/v1/users/reset-password.
 */
export async function applyPasswordLink(
  args: Args,
  purpose: LinkPurpose,
  iv: string | null,
  encryptedData: string | null,
  password: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { db, env, log } = args.context.services;
  const checked = await checkPasswordLink(args, purpose, iv, encryptedData);
  if (!checked.ok) return checked;
  const redeemed = await redeemLink(db, env.SESSION_SECRET, iv, encryptedData, purpose);
  if (!redeemed.ok) return { ok: false, message: LINK_MESSAGES[redeemed.reason] };
  await updateParentPassword(db, checked.parent.id, await hashPassword(password));
  const ended = await revokeAllSessions(db, checked.parent.id);
  await endStreams(args.context.services, { parentIds: [checked.parent.id] }, "password-changed");
  await markEmailVerified(db, checked.parent.id);
  log("info", "password set from email link", { parent: checked.parent.id, purpose, sessionsEnded: ended });
  return { ok: true };
}

/** Shared action of /reset-password and /password/set: new password, every session ended, then /login. */
export async function passwordLinkAction(args: Args, purpose: LinkPurpose, successMessage: string) {
  const { db, env } = args.context.services;
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, {
    schema: PasswordLinkSchema.superRefine((v, ctx) => {
      for (const p of newPasswordProblems(v)) ctx.addIssue({ code: "custom", path: [p.field], message: p.message });
    }),
  });
  const hide = { hideFields: ["password", "confirm_password"] };
  if (isHoneypotFilled(formData)) return json(submission.reply({ formErrors: [HONEYPOT_MESSAGE], ...hide }), { status: 400 });
  if (!(await allowIp(db, env, args.request, purpose === "set-password" ? "set-password" : "reset"))) {
    return json(submission.reply({ formErrors: [RATE_LIMIT_MESSAGE], ...hide }), { status: 429 });
  }
  if (submission.status !== "success") return json(submission.reply(hide), { status: 400 });
  const { iv = null, encryptedData = null, password } = submission.value;
  const applied = await applyPasswordLink(args, purpose, iv, encryptedData, password);
  if (!applied.ok) return json(submission.reply({ formErrors: [applied.message], ...hide }), { status: 400 });
  return redirectWithToast(
    "/login",
    { type: "success", message: successMessage },
    { headers: { "Set-Cookie": await sessionCookie().serialize("", { maxAge: 0 }) } },
  );
}
