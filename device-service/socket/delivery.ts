import type { WebSocket } from "ws";
import type { CarriedCommand } from "../bus";
import { frameData, markSent, pendingCommands } from "../commands/outbox";
import type { DeviceServiceDeps } from "../context";
import type { ServerFrame } from "./messages";

/** A failed command delivery to a connected phone is tried again after 0.5 s, 1 s, 2 s … at most every 30 s. */
export const DELIVERY_RETRY_BASE_MS = 500;
export const DELIVERY_RETRY_CAP_MS = 30_000;
/** The ids of the last commands sent on a socket that it remembers, so an announcement arriving late sends nothing twice. */
export const RECENTLY_SENT = 8;

/** What a connection keeps for its commands' delivery. */
export interface DeliveryState {
  ws: WebSocket;
  device: { id: string };
  statusSeen: boolean;
  delivering: boolean;
  again: boolean;
  againIncludeSent: boolean;
  /** Open commands may be waiting: some were when the phone's row was read, or one was announced since. */
  mayHaveCommands: boolean;
  /** The last RECENTLY_SENT command ids sent on this socket (none until the first). */
  recent?: string[];
}

/**
 * Sends a connected phone its open commands, one pass at a time per socket, in the order they were issued, each marked
 * sent after its frame went out. A pass that fails (a saturated pool, a lost database) is tried again with backoff while
 * the phone stays connected here, so a stored command never waits for a reconnection.
 *
 * `carried`: the commands an announcement brought with it (commands/outbox.ts `dispatch`). When nothing is being sent
 * to this socket and no pass is failing, they go out before the outbox is read — the read then finds what else is
 * waiting, sends it and marks everything sent. A command this socket already sent (remembered for the last few) is
 * not sent again by an announcement that arrives late.
 */
export function createDelivery<C extends DeliveryState>(
  deps: DeviceServiceDeps,
  o: { send(c: C, frame: ServerFrame): void; stillHere(c: C): boolean },
) {
  const retrying = new Map<C, number>();
  const retryLater = (c: C, includeSent: boolean) => {
    const attempt = (retrying.get(c) ?? 0) + 1;
    retrying.set(c, attempt);
    setTimeout(
      () => {
        if (!o.stillHere(c) || c.ws.readyState !== c.ws.OPEN) retrying.delete(c);
        else void deliverTo(c, includeSent);
      },
      Math.min(DELIVERY_RETRY_CAP_MS, DELIVERY_RETRY_BASE_MS * 2 ** (attempt - 1)),
    ).unref();
  };
  const sendAll = (c: C, cmds: readonly CarriedCommand[]) => {
    for (const cmd of cmds) o.send(c, { event: "command", id: cmd.id, data: frameData(cmd) });
    c.recent = [...(c.recent ?? []), ...cmds.map((x) => x.id)].slice(-RECENTLY_SENT);
  };

  async function deliverTo(c: C, includeSent: boolean, carried?: readonly CarriedCommand[]): Promise<void> {
    if (!c.statusSeen) {
      // Delivered after the status (the first delivery reads everything open).
      c.mayHaveCommands = true;
      return;
    }
    if (c.delivering) {
      c.again = true;
      c.againIncludeSent ||= includeSent;
      return;
    }
    c.delivering = true;
    try {
      let incl = includeSent;
      if (carried?.length && !incl && !retrying.has(c) && c.ws.readyState === c.ws.OPEN) {
        const fresh = carried.filter((x) => !c.recent?.includes(x.id));
        if (fresh.length) {
          sendAll(c, fresh);
          // Marked at once, as after a read: the phone's acknowledgement, already on its way, waits on this row's lock.
          await markSent(
            deps.db,
            fresh.map((x) => x.id),
          );
        }
      }
      for (;;) {
        c.again = false;
        c.againIncludeSent = false;
        // A redelivery's pass sends everything open; otherwise what this socket sent already (its "sent" mark not
        // written: the pass failed after the frame) is only marked.
        const open = await pendingCommands(deps.db, c.device.id, incl);
        const toSend = incl ? open : open.filter((x) => !c.recent?.includes(x.id));
        if (toSend.length && c.ws.readyState === c.ws.OPEN) sendAll(c, toSend);
        if (open.length && c.ws.readyState === c.ws.OPEN)
          await markSent(
            deps.db,
            open.map((x) => x.id),
          );
        if (!c.again) break;
        incl = c.againIncludeSent;
      }
      retrying.delete(c);
    } catch (err) {
      deps.log("error", "command delivery failed; retrying", {
        deviceId: c.device.id,
        error: err instanceof Error ? err.message : String(err),
      });
      retryLater(c, includeSent || c.againIncludeSent);
    } finally {
      c.delivering = false;
    }
  }

  return { deliverTo };
}
