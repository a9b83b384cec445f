import { TRPCError } from "@trpc/server";
import { possessive } from "../messages";

/** Abuse limit: commands one parent may send to one phone in any 60 seconds (LOCK, RING, SYNC, installs, …). */
export const COMMANDS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

export function tooManyCommandsMessage(kidName: string): string {
  return `You have sent ${COMMANDS_PER_MINUTE} commands to ${possessive(kidName)} phone in the last minute. Please wait a minute before sending another.`;
}

/**
 * A parent's budget of commands to a phone: at most 30 in any 60 seconds. The count is the outbox itself
 * (device_commands rows issued by this parent to this phone since `commandWindowStart`), so it is shared by every
 * process and needs no counter of its own; the window slides, so it never resets at a minute boundary. The count is
 * read with the phone itself (findAccessibleDevice's `commandsIssuedSince`), in the same statement.
 */
export function commandWindowStart(now: Date = new Date()): string {
  return new Date(now.getTime() - WINDOW_MS).toISOString();
}

/** Refuses the command when the parent already sent 30 to this phone in the window. */
export function assertCommandBudget(issuedInWindow: number, kidName: string): void {
  if (issuedInWindow >= COMMANDS_PER_MINUTE) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: tooManyCommandsMessage(kidName) });
}
