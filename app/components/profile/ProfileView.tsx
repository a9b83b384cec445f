import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import type { loader } from "~/routes/_app.parent-profile";
import { useIsSubmitting } from "~/utils/hooks";
import { formatMediumDateTime } from "#core/format";
import { AddKidModal } from "~/components/dashboard/popups/FamilyModals";
import { AddAccessModal } from "./AddAccessModal";
import { ConfirmModal } from "./ConfirmModal";
import { DelegatedAccessTable, ReceivedAccessTable } from "./DelegationTables";
import { KidsCard } from "./KidsCard";
import { TimeZoneCard } from "./TimeZoneCard";
import { HomeAssistantCard } from "./HomeAssistantCard";
import { ChevronIcon } from "~/components/dashboard/icons";

export type ProfileData = SerializeFrom<typeof loader>;
export type ProfileActionData =
  | { intent: "name" | "add" | "add-kid"; result: SubmissionResult<string[]> }
  | { intent: "time-zone" | "home-assistant"; error: string }
  | null;

/** /parent-profile (spec 1 §2): name and email, a note about delegation, both tables, notifications, modals from the URL. */
export function ProfileView({ data, actionData }: { data: ProfileData; actionData: ProfileActionData }) {
  const addKidResult = actionData?.intent === "add-kid" ? actionData.result : undefined;
  return (
    <div className="stack">
      <Link to="/kids-device" className="back-link">
        <ChevronIcon dir="left" /> Back to Home
      </Link>
      <h1>Parent Profile</h1>
      <NameCard data={data} lastResult={actionData?.intent === "name" ? actionData.result : undefined} />
      <TimeZoneCard
        saved={data.timeZone.saved}
        zones={data.timeZone.zones}
        error={actionData?.intent === "time-zone" ? actionData.error : null}
      />
      <KidsCard kids={data.ownKids} />
      <HomeAssistantCard data={data.homeAssistant} error={actionData?.intent === "home-assistant" ? actionData.error : null} />
      {!data.parent.verified && data.received.some((d) => d.status === "Pending") ? <VerifyFirst email={data.parent.email} /> : null}
      <DelegatedAccessTable rows={data.given} />
      <ReceivedAccessTable rows={data.received} verified={data.parent.verified} />
      <Notifications items={data.notifications} />
      {data.modal === "add" ? (
        <AddAccessModal data={data} lastResult={actionData?.intent === "add" && "result" in actionData ? actionData.result : undefined} />
      ) : null}
      {data.modal === "add-kid" || addKidResult ? <AddKidModal lastResult={addKidResult} currentYear={data.currentYear} /> : null}
      {data.confirm ? <ConfirmModal kind={data.confirm.kind} row={data.confirm.row} /> : null}
    </div>
  );
}

function NameCard({ data, lastResult }: { data: ProfileData; lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useIsSubmitting({ intent: "name" });
  const [form, fields] = useForm({ lastResult, defaultValue: { parentName: data.parent.name } });
  return (
    <section className="card stack" aria-labelledby="profile-title">
      <h2 id="profile-title">Your details</h2>
      <Form method="post" {...getFormProps(form)} className="stack" preventScrollReset>
        <input type="hidden" name="intent" value="name" />
        <FormErrors errors={form.errors} />
        <Field label="Parent name" id={fields.parentName.id} errors={fields.parentName.errors}>
          <input {...getInputProps(fields.parentName, { type: "text" })} autoComplete="name" />
        </Field>
        <Field label="Email" id="profile-email">
          <input id="profile-email" type="email" value={data.parent.email} readOnly aria-readonly="true" />
        </Field>
        <div>
          <SubmitButton busy={busy} className="btn">
            Save
          </SubmitButton>
        </div>
      </Form>
      <p className="muted small" data-testid="delegation-note">
        Delegation lets another adult manage chosen kids exactly as you do: dashboard, settings, commands, apps and reports. They are
        invited by email at your own domain (@{data.parent.domain}) and get access only after accepting from a verified address. Delegation
        itself, payments, removing a kid and your account stay yours alone, and you can revoke access at any time.
      </p>
    </section>
  );
}

function VerifyFirst({ email }: { email: string }) {
  const busy = useIsSubmitting({ intent: "resend-verification" });
  return (
    <section className="banner banner-warning stack" role="status" data-testid="verify-first">
      <p>Please verify your email address ({email}) before accepting an invitation: open the link we sent you when you signed up.</p>
      <Form method="post">
        <input type="hidden" name="intent" value="resend-verification" />
        <SubmitButton busy={busy} className="btn btn-outline btn-small">
          Send the link again
        </SubmitButton>
      </Form>
    </section>
  );
}

function Notifications({ items }: { items: ProfileData["notifications"] }) {
  if (!items.length) return null;
  return (
    <section className="card stack" aria-labelledby="profile-notes-title">
      <h2 id="profile-notes-title">Notifications</h2>
      <ul className="profile-notes">
        {items.map((n) => (
          <li key={n.id} className={n.readAt ? undefined : "unread"}>
            {n.message} <span className="muted small">· {formatMediumDateTime(n.createdAt)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
