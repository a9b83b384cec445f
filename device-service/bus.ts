import { EventEmitter } from "node:events";
import { Redis } from "ioredis";

/**
 * Cross-process notifications: "device X has a new command", "parent Y should refresh".
 * In-process by default; with REDIS_URL every process publishes and subscribes through Redis pub/sub,
 * so a command issued on one process reaches a phone connected to another.
 */
export type BusMessage =
  | { type: "device.command"; deviceId: string }
  | { type: "parent.refresh"; parentIds: string[]; profileId?: string; reason: string }
  | { type: "device.status"; deviceId: string; profileId: string };

export interface Bus {
  publish(msg: BusMessage): Promise<void>;
  subscribe(listener: (msg: BusMessage) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = "kids-portal:bus";

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

export function createRedisBus(url: string, log: (msg: string) => void = console.error): Bus {
  const local = createLocalBus();
  const pub = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  pub.on("error", (e) => log(`[bus] redis publisher: ${e.message}`));
  sub.on("error", (e) => log(`[bus] redis subscriber: ${e.message}`));
  void sub.subscribe(CHANNEL);
  sub.on("message", (_channel, raw: string) => {
    try {
      void local.publish(JSON.parse(raw) as BusMessage);
    } catch {
      log("[bus] dropped a malformed message");
    }
  });
  return {
    async publish(msg) {
      await pub.publish(CHANNEL, JSON.stringify(msg));
    },
    subscribe: local.subscribe,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
      await local.close();
    },
  };
}
