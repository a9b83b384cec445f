import { formatDateTime } from "#core/format";

/**
 * The kids of a family: the page size of the kids list, the kid the dashboard opens on, and the birth fields
 * of the kid form (spec 1 §4).
 */

export const KIDS_PAGE_SIZE = 50;

/** The kid the dashboard opens on when the URL names none: the first with a phone, else the first. */
export function defaultKidId(kids: { id: string; serialNumber: string | null }[]): string | null {
  return kids.find((k) => k.serialNumber)?.id ?? kids[0]?.id ?? null;
}
export { BIRTH_YEAR_MIN } from "#core/values";
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** The phone's state as the switcher and the header show it: no phone, online now, or offline since when. */
export function phoneStateLabel(kid: { phone: "none" | "online" | "offline"; lastSeen: string | null }): string {
  if (kid.phone === "none") return "No phone yet";
  if (kid.phone === "online") return "Online now";
  return kid.lastSeen ? `Offline, last seen ${formatDateTime(kid.lastSeen)}` : "Offline, not seen yet";
}
