import { z } from "zod";
import type { Parent } from "#db/schema";
import { OTP_MESSAGES, verifyOtp } from "#db/queries/otp";
import { findParentById, normalizeEmail } from "#db/queries/parents";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { createSession, revokeSession } from "#db/queries/sessions";
import { revokeApiToken } from "#db/queries/api-tokens";
import { listAccessReceived, listDelegatedAccess, listOwnKids } from "#db/queries/delegations";
import { setReportType } from "#db/queries/dashboard/reports";
import { hashToken } from "#db/queries/sessions";
import { answer, invite, revoke } from "~/components/profile/delegation.server";
import { checkDelegateForm, emailDomain } from "~/rules/delegation";
import { allowIp } from "~/utils/rate-limit.server";
import { redeemVerifyLink } from "~/utils/link-signin.server";
import { LINK_MESSAGES } from "~/utils/links.server";
import { PASSWORD_RESET_MESSAGE, applyPasswordLink, newPasswordProblems } from "~/utils/password-links.server";
import { FORGOT_SENT_MESSAGE, ForgotSchema, sendPasswordLink } from "~/utils/forgot-password.server";
import { beginTwoStep, checkPassword, defaultTarget, twoStepCookie, type TwoStepState } from "~/utils/signin.server";
import { ChangePasswordFields, PASSWORD_CHANGED_MESSAGE, applyPasswordChange, changePasswordChecks } from "~/utils/password-change.server";
import { endStreams } from "~/utils/sse.server";
import { authenticate, bearerOf } from "../auth.server";
import { body, defineCall, none, query, type CallContext } from "../define";
import { ApiError } from "../envelope";

const TAG = "Users";
const email = z.string().trim().toLowerCase().email("Please enter a valid email address.").max(254);

const parentView = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(["parent", "operator"]),
  emailVerified: z.boolean(),
  useDefaultPassword: z.boolean(),
  kidsReportType: z.enum(["Off", "Weekly", "Monthly"]),
  timeZone: z.string(),
});
const parentOf = (p: NonNullable<CallContext["parent"]>): z.infer<typeof parentView> => ({
  _id: p.id,
  name: p.name,
  email: p.email,
  role: p.role,
  emailVerified: Boolean(p.email_verified_at),
  useDefaultPassword: Boolean(p.use_default_password),
  kidsReportType: p.kids_report_type,
  timeZone: p.time_zone,
});

/** The two-step state of a password step, carried by the API client as the page's kp_2fa cookie's signed value. */
async function twoStepToken(state: TwoStepState): Promise<string> {
  const cookie = await twoStepCookie().serialize(state);
  return cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";"));
}
async function readTwoStepToken(token: string, forEmail: string): Promise<TwoStepState | null> {
  const state = (await twoStepCookie().parse(`kp_2fa=${token}`)) as TwoStepState | null;
  if (!state?.pid || normalizeEmail(forEmail) !== state.email) return null;
  return state;
}

async function newSession(ctx: CallContext, parentId: string, userAgent: string | undefined): Promise<string> {
  const e = ctx.services.env;
  return createSession(
    ctx.services.db,
    parentId,
    { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteDays: e.SESSION_ABSOLUTE_DAYS },
    { userAgent: userAgent ?? ctx.req.get("User-Agent") ?? null, ip: ctx.req.ip ?? null },
  );
}

/** A parent who proved who they are (password, or email link): a session token, or with two-step on the code's step. */
async function signIn(ctx: CallContext, parent: Parent, userAgent: string | undefined) {
  const args = ctx.guardArgs();
  const redirectUrl = defaultTarget(parent);
  if (parent.two_step_enabled) {
    const state = await beginTwoStep(args, parent, redirectUrl);
    return {
      respones_msg: state.notMailed ? OTP_MESSAGES.notMailed : `We emailed a 4-digit code to ${parent.email}.`,
      data: {
        token: null,
        useDefaultPassword: Boolean(parent.use_default_password),
        redirectUrl,
        twoStepToken: await twoStepToken(state),
      },
      enable_two_step_email_verification: true,
    };
  }
  const token = await newSession(ctx, parent.id, userAgent);
  return {
    respones_msg: "Signed in.",
    data: { token, useDefaultPassword: Boolean(parent.use_default_password), redirectUrl },
    enable_two_step_email_verification: false,
  };
}

const loginReply = z.object({
  data: z.object({
    token: z.string().nullable().describe("The session token (Authorization: Bearer); null while the emailed code is awaited."),
    useDefaultPassword: z.boolean(),
    redirectUrl: z.string(),
    twoStepToken: z.string().optional().describe("With two-step verification: send it with the code to /users/verify-otp."),
  }),
  enable_two_step_email_verification: z.boolean(),
});

export const login = defineCall({
  method: "post",
  path: "/users/login",
  tag: TAG,
  summary: "Sign in with email and password",
  note: "The sign-in page's checks (per-address and per-account limits, the same messages). With two-step verification on, no token yet: `enable_two_step_email_verification` is true, a code is mailed, and `data.twoStepToken` goes with it to POST /users/verify-otp. An unknown email answers 400 with `invalidEmail: true`.",
  auth: "none",
  changes: true,
  input: body({ email, password: z.string().min(1, "Password is required.").max(128), userAgent: z.string().max(300).optional() }),
  reply: loginReply,
  handle: async (ctx, input) => {
    const { db, env } = ctx.services;
    const args = ctx.guardArgs();
    if (!(await allowIp(db, env, args.request, "login"))) throw new ApiError(429, RATE_LIMIT_MESSAGE);
    // The API is an untrusted client (no device cookie): it shares the account's allowance for those.
    const checked = await checkPassword(ctx.services, input.email, input.password, null);
    if (!checked.ok) throw new ApiError(checked.status, checked.message, checked.unknownEmail ? { invalidEmail: true } : {});
    return signIn(ctx, checked.parent, input.userAgent);
  },
});

export const verifyOtpCall = defineCall({
  method: "post",
  path: "/users/verify-otp",
  tag: TAG,
  summary: "Finish a two-step sign-in with the emailed code",
  note: "`twoStepToken` (from POST /users/login) proves the password step, as the sign-in page's cookie does.",
  auth: "none",
  changes: true,
  input: body({
    otp: z
      .string()
      .trim()
      .regex(/^\d{1,4}$/, "The code is numeric, at most 4 digits."),
    email,
    twoStepToken: z.string().min(1).max(2000),
  }),
  reply: z.object({ data: z.object({ token: z.string() }) }),
  handle: async (ctx, input) => {
    const { db, env } = ctx.services;
    if (!(await allowIp(db, env, ctx.guardArgs().request, "otp"))) throw new ApiError(429, RATE_LIMIT_MESSAGE);
    const expired = "Your sign-in has expired. Please sign in again to get a new code.";
    const state = await readTwoStepToken(input.twoStepToken, input.email);
    if (!state) throw new ApiError(400, expired);
    const result = await verifyOtp(db, env.SESSION_SECRET, state.pid, input.otp, new Date(), null);
    if (!result.ok)
      throw new ApiError(
        result.reason === "locked" ? 429 : 400,
        result.reason === "wrong" ? OTP_MESSAGES.wrong(result.triesLeft) : OTP_MESSAGES[result.reason],
      );
    const parent = await findParentById(db, state.pid);
    if (!parent) throw new ApiError(400, expired);
    return { respones_msg: "Signed in.", data: { token: await newSession(ctx, parent.id, undefined) } };
  },
});

export const isUserLogin = defineCall({
  method: "get",
  path: "/users/isUserLogin",
  tag: TAG,
  summary: "Whether the bearer token is signed in",
  note: "Never 401: `data.isLogin` says. A read, so any token may ask.",
  auth: "none",
  changes: false,
  input: none,
  reply: z.object({ data: z.object({ isLogin: z.boolean() }) }),
  handle: async (ctx) => {
    const signedIn = bearerOf(ctx.req)
      ? await authenticate(ctx.services, ctx.req).then(
          () => true,
          () => false,
        )
      : false;
    return { respones_msg: signedIn ? "Signed in." : "Not signed in.", data: { isLogin: signedIn } };
  },
});

export const detail = defineCall({
  method: "get",
  path: "/users/detail",
  tag: TAG,
  summary: "The signed-in parent (the route guard's check)",
  note: "The spec does not show the reply: the parent's own fields, as the profile shows them.",
  auth: "parent",
  changes: false,
  input: none,
  reply: z.object({ data: parentView }),
  handle: async (ctx) => ({ respones_msg: "Signed in.", data: parentOf(ctx.parent!) }),
});

export const logout = defineCall({
  method: "get",
  path: "/users/logout",
  tag: TAG,
  summary: "Sign out: the token it is called with stops working",
  note: "serialNumber and profileId are accepted as the spec sends them and not needed. With a personal access token, that token is revoked.",
  auth: "parent",
  changes: false,
  input: query({ serialNumber: z.string().max(64).optional(), profileId: z.string().max(64).optional() }),
  reply: z.object({}),
  handle: async (ctx) => {
    const c = ctx.credential!;
    if (c.kind === "session") {
      await revokeSession(ctx.services.db, c.token);
      await endStreams(ctx.services, { sessionIds: [hashToken(c.token)] }, "signed-out");
    } else await revokeApiToken(ctx.services.db, ctx.parent!.id, c.id);
    return { respones_msg: "Signed out." };
  },
});

const delegationRow = z.object({
  _id: z.string(),
  ownerName: z.string(),
  ownerEmail: z.string(),
  name: z.string(),
  email: z.string(),
  accessLevel: z.string(),
  status: z.enum(["Pending", "Accepted", "Rejected", "Revoked"]),
  allowedKids: z.array(z.object({ _id: z.string(), profile_name: z.string() })),
  createdAt: z.string(),
});
type Row = Awaited<ReturnType<typeof listDelegatedAccess>>[number];
const rowOf = (d: Row): z.infer<typeof delegationRow> => ({
  _id: d.id,
  ownerName: d.ownerName,
  ownerEmail: d.ownerEmail,
  name: d.delegateName,
  email: d.delegateEmail,
  accessLevel: d.accessLevel,
  status: d.status,
  allowedKids: d.kids.map((k) => ({ _id: k.id, profile_name: k.name })),
  createdAt: d.createdAt,
});

export const profile = defineCall({
  method: "get",
  path: "/users/parent/profile",
  tag: TAG,
  summary: "The parent profile: own kids, access given and access received",
  auth: "parent",
  changes: false,
  input: none,
  reply: z.object({
    data: parentView,
    kidsList: z.array(z.object({ _id: z.string(), profile_name: z.string() })),
    delegatedAccessList: z.array(delegationRow),
    accessReceivedList: z.array(delegationRow),
  }),
  handle: async (ctx) => {
    const { db } = ctx.services;
    const parent = ctx.parent!;
    const [own, given, received] = await Promise.all([
      listOwnKids(db, parent.id),
      listDelegatedAccess(db, parent.id),
      listAccessReceived(db, parent.email),
    ]);
    return {
      respones_msg: "Profile.",
      data: parentOf(parent),
      kidsList: own.map((k) => ({ _id: k.id, profile_name: k.name })),
      delegatedAccessList: given.map(rowOf),
      accessReceivedList: received.map(rowOf),
    };
  },
});

export const delegateAccess = defineCall({
  method: "post",
  path: "/users/parent/delegate-access",
  tag: TAG,
  summary: "Invite a delegate to chosen kids",
  note: "`email` is the username, or a whole address in the parent's own domain (the page types the username only). The profile page's checks and messages; the kids must be the parent's own.",
  auth: "parent",
  changes: true,
  input: body({
    name: z.string().max(200),
    email: z.string().trim().max(254),
    accessLevel: z.literal("full").default("full"),
    allowedKids: z.array(z.string().max(64)).max(100),
  }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const parent = ctx.parent!;
    let username = input.email;
    if (username.includes("@")) {
      const [local, domain] = username.toLowerCase().split("@");
      if (domain !== emailDomain(parent.email))
        throw new ApiError(400, `The delegate's address must be in your own domain (@${emailDomain(parent.email)}).`);
      username = local ?? "";
    }
    // Delegation is the owner's alone: a kid that is not their own is another family's, and reveals nothing (404).
    const own = new Set((await listOwnKids(ctx.services.db, parent.id)).map((k) => k.id));
    if (input.allowedKids.some((k) => !own.has(k.trim()))) throw new ApiError(404, "We couldn't find this kid in your account.");
    const checked = checkDelegateForm({ username, name: input.name, allowedKids: input.allowedKids }, parent.email);
    if (!checked.ok) throw new ApiError(400, checked.message);
    const outcome = await invite(ctx.services, parent, checked.value);
    if (!outcome.ok) throw new ApiError(400, outcome.message);
    return { respones_msg: outcome.message };
  },
});

export const delegateStatus = defineCall({
  method: "post",
  path: "/users/parent/update-delegate-access/status",
  tag: TAG,
  summary: "Accept or reject access received, or revoke access given",
  note: "status Accepted or Rejected: the delegate answers an invitation to them; Revoked: the owner ends it. Another parent's id is 404.",
  auth: "parent",
  changes: true,
  input: body({ id: z.string().trim().min(1).max(64), status: z.enum(["Accepted", "Rejected", "Revoked"]) }),
  reply: z.object({}),
  errors: { 404: "Not this parent's delegation." },
  handle: async (ctx, input) => {
    const outcome =
      input.status === "Revoked"
        ? await revoke(ctx.services, ctx.parent!, input.id)
        : await answer(ctx.services, ctx.parent!, input.id, input.status);
    if (!outcome.ok) throw new ApiError(409, outcome.message);
    return { respones_msg: outcome.message };
  },
});

export const changePassword = defineCall({
  method: "post",
  path: "/users/change-password",
  tag: TAG,
  summary: "Change the password (every session ends)",
  note: "The page's checks. Every session token of the parent stops working; personal access tokens go on until revoked.",
  auth: "parent",
  changes: true,
  input: z.object(ChangePasswordFields).strict(),
  reply: z.object({}),
  handle: async (ctx, input) => {
    // The parent's own checks (current password, strength, confirmation): a failure is a 400 with the page's words.
    await z.object(ChangePasswordFields).superRefine(changePasswordChecks(ctx.parent!)).parseAsync(input);
    await applyPasswordChange(ctx.services, ctx.parent!, input.new_password);
    return { respones_msg: PASSWORD_CHANGED_MESSAGE };
  },
});

export const reportFrequency = defineCall({
  method: "post",
  path: "/users/update/reportFrequency",
  tag: TAG,
  summary: "How often the kids' reports are mailed",
  auth: "parent",
  changes: true,
  input: body({ kidsReportType: z.enum(["Off", "Weekly", "Monthly"]) }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    await setReportType(ctx.services.db, ctx.parent!.id, input.kidsReportType);
    return { respones_msg: "Report frequency saved." };
  },
});

export const sendForgetPasswordLink = defineCall({
  method: "post",
  path: "/users/send-forget-password-link",
  tag: TAG,
  summary: "Mail a link to reset the password",
  note: "The forgotten-password page's action: the same answer whether or not the email has an account (nothing revealed), the page's per-address limit (429) and at most five mails an hour to one account. The link opens the /reset-password page (or /password/set for an account without a password).",
  auth: "none",
  changes: true,
  input: ForgotSchema.strict(),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const { db, env } = ctx.services;
    if (!(await allowIp(db, env, ctx.guardArgs().request, "forgot"))) throw new ApiError(429, RATE_LIMIT_MESSAGE);
    await sendPasswordLink(ctx.services, input.email);
    return { respones_msg: FORGOT_SENT_MESSAGE };
  },
});

export const resetPassword = defineCall({
  method: "post",
  path: "/users/reset-password",
  tag: TAG,
  summary: "Set a new password with the emailed reset link's iv and encryptedData",
  note: "The /reset-password page's action: the password rules, the link checked and spent (one use; a link older than the account's password is spent), every session of the account ended, and the page's per-address limit (429). encrypted_data is the link's encryptedData.",
  auth: "none",
  changes: true,
  input: body({
    password: z.string().max(128),
    confirm_password: z.string().max(128),
    iv: z.string().min(1).max(200),
    encrypted_data: z.string().min(1).max(2000),
  }),
  reply: z.object({}),
  handle: async (ctx, input) => {
    const { db, env } = ctx.services;
    const args = ctx.guardArgs();
    if (!(await allowIp(db, env, args.request, "reset"))) throw new ApiError(429, RATE_LIMIT_MESSAGE);
    const problem = newPasswordProblems(input)[0];
    if (problem) throw new ApiError(400, problem.message);
    const applied = await applyPasswordLink(args, "reset-password", input.iv, input.encrypted_data, input.password);
    if (!applied.ok) throw new ApiError(400, applied.message);
    return { respones_msg: PASSWORD_RESET_MESSAGE };
  },
});

export const verifyEmail = defineCall({
  method: "post",
  path: "/users/verify/email",
  tag: TAG,
  summary: "Use the email-verification link: the email is verified and the parent signed in",
  note: "iv and encryptedData of the link mailed at registration (one use, a day). The sign-in page's Continue step: the same limit and messages; with two-step verification on, no token yet (as POST /users/login answers).",
  auth: "none",
  changes: true,
  input: body({ iv: z.string().min(1).max(200), encryptedData: z.string().min(1).max(2000), userAgent: z.string().max(300).optional() }),
  reply: loginReply,
  handle: async (ctx, input) => {
    const { db, env } = ctx.services;
    const args = ctx.guardArgs();
    if (!(await allowIp(db, env, args.request, "login"))) throw new ApiError(429, RATE_LIMIT_MESSAGE);
    const used = await redeemVerifyLink(args, input.iv, input.encryptedData);
    if (!used.ok) throw new ApiError(400, LINK_MESSAGES[used.reason]);
    return signIn(ctx, used.parent, input.userAgent);
  },
});
