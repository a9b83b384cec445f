import type { EventEmitter } from "node:events";
import type { CommandType } from "../commands/types";

/** What a simulated phone keeps of each command it received. */
export interface ReceivedLike {
  type: CommandType;
}

/** Resolves when a matching command of this type has arrived (in `received`) or arrives (a "command" event). */
export function waitForCommand<C extends ReceivedLike>(phone: EventEmitter, received: C[], type: CommandType, timeoutMs: number, match: (c: C) => boolean): Promise<C> {
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
