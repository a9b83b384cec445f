import type { AppLoadContext } from "@remix-run/node";
import { hitCounter } from "#db/queries/accounts";
import {
  answerDelegation,
  createDelegation,
  findDelegation,
  parentIdByEmail,
  revokeDelegation,
  type DelegationRow,
} from "#db/queries/delegations";
import { addParentNotification } from "#db/queries/parent-profile";
import type { Parent } from "#db/schema";
import { publicOrigin } from "#core/env.server";
import { linkUrl, newLink } from "~/utils/links.server";
import { mails, type Mail } from "#core/mail.server";
import { sendMail } from "~/utils/mail.server";
import { endStreams } from "~/utils/sse.server";
import { possessive } from "#device-service/messages";

/**
 * The parent profile's delegation steps with their side effects: the database change (db/queries/delegations),
 * then a portal notification and a mail to the other party, and on revocation a live refresh that makes the
 * delegate's open pages ask again (and be refused). Each returns the message the page shows.
 */

/** Abuse limits: invitations mail other people, verification links mail oneself. */
export const INVITES_PER_DAY = 20;
export const VERIFY_RESENDS_PER_HOUR = 3;
const DAY = 86_400_000;
const HOUR = 3_600_000;

type Services = AppLoadContext["services"];
type Outcome = { ok: boolean; message: string };

const kidNames = (d: Pick<DelegationRow, "kids">) => {
  const names = d.kids.map((k) => k.name);
  return names.length <= 1 ? (names[0] ?? "no kids") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
};

function profileUrl(services: Services): string {
  return new URL("/parent-profile", publicOrigin(services.env)).toString();
}

async function tell(services: Services, mail: Mail, link = "/parent-profile"): Promise<void> {
  await addParentNotification(services.db, mail.to, mail.subject, link);
  await sendMail(services, mail);
}

export const delegationMails = {
  invited: (
    d: { email: string; name: string; ownerName: string; ownerEmail: string; kids: string },
    url: string,
    hasAccount: boolean,
  ): Mail => ({
    to: d.email,
    subject: `${d.ownerName} gave you access to ${d.kids}`,
    text:
      `Hello ${d.name},\n\n${d.ownerName} (${d.ownerEmail}) gave you full access to ${d.kids} on Kids Portal.\n\n` +
      (hasAccount
        ? `To accept or reject, sign in and open:\n\n${url}\n`
        : `You don't have a Kids Portal account yet. Sign up with this address (${d.email}), verify it with the link we send you, then accept or reject on:\n\n${url}\n`) +
      `\nAccepting needs a verified email address. If you don't know ${d.ownerName}, reject the invitation or ignore this mail.\n`,
  }),
  answered: (d: DelegationRow, answer: "Accepted" | "Rejected", url: string): Mail => ({
    to: d.ownerEmail,
    subject: `${d.delegateName} ${answer === "Accepted" ? "accepted" : "rejected"} access to ${kidNames(d)}`,
    text: `Hello ${d.ownerName},\n\n${d.delegateName} (${d.delegateEmail}) ${answer === "Accepted" ? "accepted" : "rejected"} your invitation to manage ${kidNames(d)}.\n\nYou can see and revoke access at:\n\n${url}\n`,
  }),
  revoked: (d: DelegationRow, wasAccepted: boolean, url: string): Mail => ({
    to: d.delegateEmail,
    subject: wasAccepted
      ? `${d.ownerName} ended your access to ${kidNames(d)}`
      : `${d.ownerName} withdrew the invitation to ${kidNames(d)}`,
    text: `Hello ${d.delegateName},\n\n${d.ownerName} (${d.ownerEmail}) ${wasAccepted ? "ended your access to" : "withdrew the invitation to"} ${kidNames(d)} on Kids Portal.\n\n${url}\n`,
  }),
};

export async function invite(
  services: Services,
  owner: Parent,
  value: { email: string; name: string; allowedKids: string[]; accessLevel: string },
): Promise<Outcome> {
  if ((await hitCounter(services.db, `invite:${owner.id}`, DAY)) > INVITES_PER_DAY) {
    return { ok: false, message: `You can send at most ${INVITES_PER_DAY} invitations a day. Please try again tomorrow.` };
  }
  const created = await createDelegation(services.db, owner, value);
  if (!created.ok) return created;
  const kids = (
    await services.db.selectFrom("kid_profiles").select("name").where("id", "in", value.allowedKids).orderBy("name").execute()
  ).map((k) => k.name);
  const names = kidNames({ kids: kids.map((name) => ({ id: "", name })) });
  const hasAccount = Boolean(await parentIdByEmail(services.db, value.email));
  await tell(
    services,
    delegationMails.invited(
      { email: value.email, name: value.name, ownerName: owner.name, ownerEmail: owner.email, kids: names },
      profileUrl(services),
      hasAccount,
    ),
  );
  return { ok: true, message: `Invitation sent to ${value.email}. ${value.name} gets access to ${names} after accepting.` };
}

/** Accept or reject: refused answers are 404 when the invitation is not this parent's (reveals nothing). */
export async function answer(services: Services, parent: Parent, id: string, status: "Accepted" | "Rejected"): Promise<Outcome> {
  const result = await answerDelegation(services.db, parent, id, status);
  if (!result.ok) {
    if (result.reason === "not-found") throw new Response("Invitation not found.", { status: 404 });
    if (result.reason === "unverified")
      return {
        ok: false,
        message: `Please verify your email address (${parent.email}) before accepting: open the link we sent you, or send it again below.`,
      };
    return { ok: false, message: "This invitation has already been answered or withdrawn." };
  }
  const d = result.delegation;
  await tell(services, delegationMails.answered(d, status, profileUrl(services)));
  return { ok: true, message: status === "Accepted" ? `You now have access to ${kidNames(d)}.` : "Invitation rejected." };
}

/** "Mia's phone (SERIAL-1)" for each phone, joined as kidNames joins kids. */
export function phoneNames(phones: { kidName: string; serialNumber: string }[]): string {
  const names = phones.map((p) => `${possessive(p.kidName)} phone (${p.serialNumber})`);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * The phones the delegate enrolled for the delegation's kids are removed (device-service `removeRevokedDelegatePhones`):
 * their credentials stop working, their sockets close, no policy reaches them. The owner is told which, on the page
 * (the returned sentence) and in the portal's notifications. Null when the device service could not be reached.
 */
async function removeDelegatePhones(services: Services, owner: Parent, d: Pick<DelegationRow, "id" | "delegateName">) {
  try {
    const { phones } = await services
      .device({ id: owner.id, email: owner.email, role: owner.role })
      .enrollment.removeRevokedDelegatePhones({ delegationId: d.id });
    if (!phones.length) return "";
    const sentence = `The ${phones.length === 1 ? "phone" : "phones"} ${d.delegateName} enrolled ${phones.length === 1 ? "was" : "were"} removed: ${phoneNames(phones)}.`;
    await addParentNotification(services.db, owner.email, `You revoked ${d.delegateName}'s access. ${sentence}`, "/parent-profile");
    return ` ${sentence}`;
  } catch (err) {
    services.log("error", "phones of a revoked delegate not removed", {
      delegation: d.id,
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

export async function revoke(services: Services, owner: Parent, id: string): Promise<Outcome> {
  const result = await revokeDelegation(services.db, owner.id, id);
  if (!result.ok) {
    if (result.reason === "not-found") throw new Response("Access not found.", { status: 404 });
    // Already revoked (a second submission, or an earlier one whose phones could not be removed): remove them now.
    const ended = await findDelegation(services.db, id);
    const phones = ended?.status === "Revoked" ? await removeDelegatePhones(services, owner, ended) : "";
    if (phones) return { ok: true, message: phones.trim() };
    return { ok: false, message: "This access has already ended." };
  }
  const d = result.delegation;
  const phones = await removeDelegatePhones(services, owner, d);
  // Open pages of the delegate reload now (and are refused); the access rule already refuses every new request.
  const delegateId = await parentIdByEmail(services.db, d.delegateEmail);
  if (delegateId) {
    for (const kid of d.kids) {
      await services.bus
        .publish({ type: "parent.refresh", parentIds: [delegateId], profileId: kid.id, reason: "access.revoked" })
        .catch((err: unknown) => {
          services.log("warn", "revocation refresh not published", { error: err instanceof Error ? err.message : String(err) });
        });
    }
    // Then the delegate's live streams end (after the refreshes: one channel keeps the order); a reconnect gets a new
    // stream that hears only the kids the delegate still has.
    await endStreams(services, { parentIds: [delegateId] }, "access-revoked");
  }
  await tell(services, delegationMails.revoked(d, result.wasAccepted, profileUrl(services)));
  if (!result.wasAccepted) return { ok: true, message: `The invitation to ${d.delegateEmail} has been withdrawn.` };
  if (phones === null)
    return {
      ok: false,
      message: `${d.delegateName}'s access has been revoked, but the phones ${d.delegateName} enrolled could not be removed just now. Please remove them with Replace phone on the kid's dashboard.`,
    };
  return { ok: true, message: `${d.delegateName}'s access has been revoked.${phones}` };
}

/** A new email-verification link, for an invitee who must verify before accepting. */
export async function resendVerification(services: Services, parent: Parent): Promise<Outcome> {
  if (parent.email_verified_at) return { ok: true, message: "Your email address is already verified." };
  if ((await hitCounter(services.db, `verify-resend:${parent.id}`, HOUR)) > VERIFY_RESENDS_PER_HOUR) {
    return { ok: false, message: "We've sent several links already. Please check your inbox, or try again in an hour." };
  }
  const link = newLink(services.env.SESSION_SECRET, { parentId: parent.id, purpose: "verify-email" });
  await sendMail(services, mails.verifyEmail(parent.email, parent.name, linkUrl(publicOrigin(services.env), "/login", link)));
  return { ok: true, message: `We've sent a verification link to ${parent.email}.` };
}
