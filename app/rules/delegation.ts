/**
 * Delegated access, the pure rules (spec 1 §3, §4, §5, §6): status badge colours, the invited address built from
 * a username and the owner's own domain, and the required-field check of the add form.
 */

export const DELEGATION_STATUSES = ["Pending", "Accepted", "Rejected", "Revoked"] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];

/** Spec 1 §6: the only access level is full, and it is the default. */
export const ACCESS_LEVELS = ["full"] as const;
export const DEFAULT_ACCESS_LEVEL = "full" as const;

export const REQUIRED_FIELDS_MESSAGE = "Please fill all required fields.";
export const NAME_MAX = 80;
const USERNAME_MAX = 64;

export type BadgeColour = "green" | "yellow" | "red" | "grey";

/** Delegated-access status badges: Accepted green, Pending yellow, Rejected red, anything else grey. */
export function statusBadgeColour(status: string | null | undefined): BadgeColour {
  switch (status) {
    case "Accepted":
      return "green";
    case "Pending":
      return "yellow";
    case "Rejected":
      return "red";
    default:
      return "grey";
  }
}

/** The domain of an address (after its last @), lower-cased. */
export function emailDomain(email: string): string {
  return email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();
}

/** The address an invitation goes to: the typed username at the owner's own domain (spec 1 §5). */
export function inviteAddress(username: string, ownerEmail: string): string {
  return `${username.trim().toLowerCase()}@${emailDomain(ownerEmail)}`;
}

/** Why a typed username cannot be the part before the @, or null when it can. */
export function usernameProblem(username: string): string | null {
  const u = username.trim();
  if (u.includes("@")) return "Type only the part before the @: the address ends in your own domain.";
  if (u.length > USERNAME_MAX) return `The username must be at most ${USERNAME_MAX} characters.`;
  if (!/^[A-Za-z0-9._%+-]+$/.test(u)) return "The username may hold only letters, digits and . _ % + -";
  if (u.startsWith(".") || u.endsWith(".")) return "The username cannot start or end with a dot.";
  if (u.includes("..")) return "The username cannot hold two dots in a row.";
  return null;
}

export interface DelegateFormInput {
  username?: string | null;
  name?: string | null;
  allowedKids?: readonly (string | null | undefined)[] | null;
}

export type DelegateFormResult =
  | { ok: true; value: { email: string; name: string; allowedKids: string[]; accessLevel: typeof DEFAULT_ACCESS_LEVEL } }
  | { ok: false; message: string };

/**
 * The add form's check: username, name and at least one allowed kid are required, otherwise the spec's
 * 'Please fill all required fields.'; then the username's shape, the name's length, and not oneself.
 * Whether the kids are the owner's own is the server's question (db/queries/delegations.ts).
 */
export function checkDelegateForm(input: DelegateFormInput, ownerEmail: string): DelegateFormResult {
  const username = (input.username ?? "").trim();
  const name = (input.name ?? "").trim();
  const kids = [...new Set((input.allowedKids ?? []).map((k) => (k ?? "").trim()).filter(Boolean))];
  if (!username || !name || kids.length === 0) return { ok: false, message: REQUIRED_FIELDS_MESSAGE };
  const problem = usernameProblem(username);
  if (problem) return { ok: false, message: problem };
  if (name.length > NAME_MAX) return { ok: false, message: `The name must be at most ${NAME_MAX} characters.` };
  const email = inviteAddress(username, ownerEmail);
  if (email === ownerEmail.trim().toLowerCase()) return { ok: false, message: "You already have access to your own kids." };
  return { ok: true, value: { email, name, allowedKids: kids, accessLevel: DEFAULT_ACCESS_LEVEL } };
}

/** "Changed by …": the viewer's own change reads "you", anyone else's "Name (email)"; nobody recorded → null. */
export function changedByLabel(actor: { id: string; name: string; email: string } | null | undefined, viewerId: string): string | null {
  if (!actor) return null;
  return actor.id === viewerId ? "you" : `${actor.name} (${actor.email})`;
}
