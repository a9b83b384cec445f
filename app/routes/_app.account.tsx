import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PasswordInput, SubmitButton } from "~/components/forms";
import { listLiveSessions, revokeSessionById, setTwoStep } from "#db/queries/accounts";
import { hashToken, revokeAllSessions } from "#db/queries/sessions";
import authStyles from "../styles/auth.css?url";
import { requireParent } from "~/utils/auth.server";
import { confirmPassword } from "~/utils/reauth.server";
import { sessionCookie } from "#core/session-cookie.server";
import { useIsSubmitting } from "~/utils/hooks";
import { redirectWithToast } from "~/utils/toast.server";
import { endStreams } from "~/utils/sse.server";
import { formatMediumDateTime } from "#core/format";
import { ChevronIcon } from "~/components/dashboard/icons";
import { describeAgent } from "~/rules/user-agent";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: authStyles }];
export const meta: MetaFunction = () => [{ title: "Account security · Kids Portal" }];

const IntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("two-step"), enabled: z.enum(["true", "false"]), password: z.string().max(1024).optional() }),
  z.object({ intent: z.literal("revoke-session"), sessionId: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("sign-out-everywhere") }),
]);

export async function loader(args: LoaderFunctionArgs) {
  const { parent, token } = await requireParent(args);
  const current = hashToken(token);
  const sessions = await listLiveSessions(args.context.services.db, parent.id);
  const e = args.context.services.env;
  return json({
    twoStep: Boolean(parent.two_step_enabled),
    email: parent.email,
    idleMinutes: e.SESSION_IDLE_MINUTES,
    absoluteDays: e.SESSION_ABSOLUTE_DAYS,
    sessions: sessions.map((s) => ({ ...s, current: s.id === current })),
  });
}

export async function action(args: ActionFunctionArgs) {
  const { parent, token } = await requireParent(args);
  const db = args.context.services.db;
  const parsed = IntentSchema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return redirectWithToast("/account", { type: "error", message: "Something went wrong. Please try again." });
  const v = parsed.data;
  switch (v.intent) {
    case "two-step": {
      const on = v.enabled === "true";
      // Turning it off weakens the account: the password first (a borrowed session alone cannot do it).
      if (!on && parent.two_step_enabled) {
        const refused = await confirmPassword(args, parent, v.password);
        if (refused) return json({ twoStepError: refused.message }, { status: refused.status });
      }
      await setTwoStep(db, parent.id, on);
      return redirectWithToast("/account", {
        type: "success",
        message: on ? "Two-step verification is on. We'll email you a code when you sign in." : "Two-step verification is off.",
      });
    }
    case "revoke-session": {
      if (v.sessionId === hashToken(token))
        return redirectWithToast("/account", { type: "error", message: "Use Log out to end this session." });
      const done = await revokeSessionById(db, parent.id, v.sessionId);
      if (done) await endStreams(args.context.services, { sessionIds: [v.sessionId] }, "signed-out");
      return redirectWithToast("/account", {
        type: done ? "success" : "error",
        message: done ? "That session has been signed out." : "That session was already signed out.",
      });
    }
    case "sign-out-everywhere": {
      const n = await revokeAllSessions(db, parent.id);
      await endStreams(args.context.services, { parentIds: [parent.id] }, "signed-out-everywhere");
      args.context.services.log("info", "signed out everywhere", { parent: parent.id, sessions: n });
      const to = parent.hide_google ? "/login?hideGBtn=true" : "/login";
      return redirectWithToast(
        to,
        { type: "success", message: "You have been signed out on every device." },
        { headers: { "Set-Cookie": await sessionCookie().serialize("", { maxAge: 0 }) } },
      );
    }
  }
}

const fmt = formatMediumDateTime;

export default function Account() {
  const { twoStep, email, sessions, idleMinutes, absoluteDays } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const twoStepError = refused && "twoStepError" in refused ? refused.twoStepError : null;
  const busyTwoStep = useIsSubmitting({ intent: "two-step" });
  const busyAll = useIsSubmitting({ intent: "sign-out-everywhere" });
  const busyOne = useIsSubmitting({ intent: "revoke-session" });
  return (
    <section className="stack">
      <Link to="/kids-device" className="back-link">
        <ChevronIcon dir="left" /> Back to Home
      </Link>
      <h1>Account security</h1>

      <div className="card stack">
        <h2>Two-step verification</h2>
        <p>
          {twoStep ? "On" : "Off"}:{" "}
          {twoStep ? `when you sign in, we email a 4-digit code to ${email}.` : "sign-in needs only your password."}
        </p>
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="two-step" />
          <input type="hidden" name="enabled" value={twoStep ? "false" : "true"} />
          {twoStep ? (
            <PasswordInput
              id="two-step-password"
              name="password"
              label="Password"
              autoComplete="current-password"
              errors={twoStepError ? [twoStepError] : null}
            />
          ) : null}
          <SubmitButton busy={busyTwoStep} className={twoStep ? "btn btn-outline" : "btn btn-primary"}>
            {twoStep ? "Turn off two-step verification" : "Turn on two-step verification"}
          </SubmitButton>
        </Form>
      </div>

      <div className="card stack">
        <h2>Where you're signed in</h2>
        <p className="muted">
          A session ends after {Math.round(idleMinutes / 60)} hours without activity, and at the latest {absoluteDays} days after sign-in.
        </p>
        <table className="sessions-table">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last active</th>
              <th scope="col">
                <span className="sr-only">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td data-label="Device">
                  {describeAgent(s.user_agent)}
                  {s.ip ? <span className="muted"> · {s.ip}</span> : null}
                  {s.current ? <strong> (this device)</strong> : null}
                </td>
                <td data-label="Signed in">{fmt(s.created_at)}</td>
                <td data-label="Last active">{fmt(s.last_seen_at)}</td>
                <td>
                  {s.current ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke-session" />
                      <input type="hidden" name="sessionId" value={s.id} />
                      <SubmitButton busy={busyOne} className="btn btn-outline">
                        Sign out
                      </SubmitButton>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Form method="post">
          <input type="hidden" name="intent" value="sign-out-everywhere" />
          <SubmitButton busy={busyAll} className="btn btn-outline">
            Sign out everywhere
          </SubmitButton>
        </Form>
      </div>
    </section>
  );
}
