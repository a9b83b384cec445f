import { EventEmitter } from "node:events";
import { Redis } from "ioredis";
import type { DeviceCommand } from "../db/schema-device-service";

/**
 * A new command as an announcement carries it to the phone's process (commands/outbox.ts `dispatch`): its outbox row's
 * frame fields, so the process holding the socket sends it before reading the outbox. The row stays the source of truth.
 */
export type CarriedCommand = Pick<DeviceCommand, "id" | "type" | "payload" | "created_at" | "expires_at">;

/**
 * Cross-process notifications: "device X has a new command", "parent Y should refresh".
 * In-process by default; with REDIS_URL every process publishes and subscribes through Redis pub/sub,
 * so a command issued on one process reaches a phone connected to another.
 */
export type BusMessage =
  /** `commands`: the new commands themselves, when small (absent: read them from the outbox). */
  | { type: "device.command"; deviceId: string; commands?: CarriedCommand[] }
  /** `commandId`: the command whose acknowledgement (or failure) was just stored, when that is the reason. */
  | { type: "parent.refresh"; parentIds: string[]; profileId?: string; reason: string; commandId?: string }
  | { type: "device.unenrolled"; deviceId: string }
  /**
   * The parents' live-update streams (GET /events, app/utils/sse.server.ts) to end: those of these sessions (signed
   * out) and those of every session of these parents (sign-out everywhere, a password change, access revoked).
   */
  | { type: "parent.streams.end"; parentIds?: string[]; sessionIds?: string[]; reason: string }
  /**
   * A kid's web filter changed (settings, block rules, schedules, a new or revoked filter id, the kid removed): every
   * process serving the filter reloads that kid (server/web-filter.ts). `from`: the publishing process, which
   * reloaded already.
   */
  | { type: "web-filter.kid"; profileId: string; from?: string }
  /** Local only: the Redis subscription came back after a loss; what was published meanwhile never arrived. */
  | { type: "bus.resubscribed" };

export interface Bus {
  publish(msg: BusMessage): Promise<void>;
  subscribe(listener: (msg: BusMessage) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = "kids-portal:bus";
/**
 * The parents' messages (`parent.refresh`, `parent.streams.end`) on a channel of their own: a process that serves no
 * parent (a device process) does not hear them. One channel for both, so a stream hears them in the order published.
 */
const PARENTS_CHANNEL = "kids-portal:bus:parents";

export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(msg) {
      emitter.emit("msg", msg);
    },
    subscribe(listener) {
      emitter.on("msg", listener);
      return () => emitter.off("msg", listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export interface RedisBusOptions {
  /** Connection names (CLIENT SETNAME): `<name>:pub` and `<name>:sub`. */
  name?: string;
  /** Called each time the subscription is (re)established and acknowledged by Redis (tests await it). */
  onSubscribed?: () => void;
  /**
   * What this process hears (default "all"). "device": every message but the parents' (`parent.refresh`,
   * `parent.streams.end`) — a device process, which
   * serves no parent's page. One `parent.refresh` is published per phone status, upload and location, and every
   * device process used to receive and parse every one (a reconnect storm of 50,000 phones: 50,000 each).
   */
  hears?: "all" | "device";
}

/**
 * Both connections reconnect by themselves (ioredis retries forever). The subscriber subscribes on every
 * 'ready', i.e. again after each reconnection (autoResubscribe is off so that this is the one place doing it,
 * and so it can be awaited). Messages published while the subscriber was away are lost: pub/sub
 * keeps nothing, so consumers never rely on the bus alone: phones fetch pending commands when they connect, and
 * after a resubscription the bus tells its local listeners (`bus.resubscribed`), so the socket gateway re-reads
 * the outbox for every phone it holds.
 */
export function createRedisBus(url: string, log: (msg: string) => void = console.error, opts: RedisBusOptions = {}): Bus {
  const local = createLocalBus();
  const name = opts.name ?? "kids-portal:bus";
  // Auto-pipelining: what is published in one turn of the event loop goes in one write (a reconnect storm publishes
  // two messages a phone; one write each was a tenth of a device process's CPU, issue 22).
  const pub = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false, enableAutoPipelining: true, connectionName: `${name}:pub` });
  const sub = new Redis(url, { maxRetriesPerRequest: null, autoResubscribe: false, connectionName: `${name}:sub` });
  pub.on("error", (e) => log(`[bus] redis publisher: ${e.message}`));
  sub.on("error", (e) => log(`[bus] redis subscriber: ${e.message}`));
  let subscribedBefore = false;
  sub.on("ready", () => {
    sub.subscribe(...(opts.hears === "device" ? [CHANNEL] : [CHANNEL, PARENTS_CHANNEL])).then(
      () => {
        // Messages published while the subscriber was away are gone: listeners catch up from the database.
        if (subscribedBefore) void local.publish({ type: "bus.resubscribed" });
        subscribedBefore = true;
        opts.onSubscribed?.();
      },
      (e: Error) => log(`[bus] redis subscribe failed: ${e.message}`),
    );
  });
  sub.on("message", (_channel, raw: string) => {
    try {
      void local.publish(JSON.parse(raw) as BusMessage);
    } catch {
      log("[bus] dropped a malformed message");
    }
  });
  return {
    async publish(msg) {
      await pub.publish(
        msg.type === "parent.refresh" || msg.type === "parent.streams.end" ? PARENTS_CHANNEL : CHANNEL,
        JSON.stringify(msg),
      );
    },
    subscribe: local.subscribe,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
      await local.close();
    },
  };
}
