import type { EventEmitter } from "node:events";
import type { CommandType } from "../commands/types";

/**
 * How long a phone waits for its socket's handshake before giving up and reconnecting (the kids app's HTTP
 * client times out a silent server after 10 s as well). Without it a connection accepted and never answered (one
 * handed to a device process as it was killed) would leave the phone waiting for ever.
 */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** What a simulated phone keeps of each command it received. */
export interface ReceivedLike {
  type: CommandType;
}

/** Resolves when a matching command of this type has arrived (in `received`) or arrives (a "command" event). */
export function waitForCommand<C extends ReceivedLike>(
  phone: EventEmitter,
  received: C[],
  type: CommandType,
  timeoutMs: number,
  match: (c: C) => boolean,
): Promise<C> {
  const have = received.find((c) => c.type === type && match(c));
  if (have) return Promise.resolve(have);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      phone.off("command", on);
      reject(new Error(`no ${type} command within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (c: C) => {
      if (c.type !== type || !match(c)) return;
      clearTimeout(t);
      phone.off("command", on);
      resolve(c);
    };
    phone.on("command", on);
  });
}
