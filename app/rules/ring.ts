/**
 * Ring This Device (spec 1 §4 "Ring sound"): the phone's real ringing state, from its last RING or STOP_SOUND
 * command and the phone's acknowledgement, so leaving the page and coming back keeps "Stop Sound".
 * starting / ringing offer Stop Sound; stopping / stopped offer Play Sound.
 */
export type RingState = "stopped" | "starting" | "ringing" | "stopping";

export interface RingCommand {
  type: string;
  status: string;
}

const PENDING = new Set(["queued", "sent"]);

export function ringState(last: RingCommand | null): RingState {
  if (!last) return "stopped";
  if (last.type === "RING") return PENDING.has(last.status) ? "starting" : last.status === "acknowledged" ? "ringing" : "stopped";
  if (PENDING.has(last.status)) return "stopping";
  return last.status === "acknowledged" ? "stopped" : "ringing";
}

/** Whether the page offers Stop Sound (the phone rings or was asked to). */
export function isPlaying(state: RingState): boolean {
  return state === "starting" || state === "ringing";
}

export const RING_STATE_TEXT: Record<RingState, string> = {
  stopped: "Not ringing.",
  starting: "Waiting for the phone to start ringing.",
  ringing: "The phone is ringing.",
  stopping: "Waiting for the phone to stop ringing.",
};
