import { createDb, migrateToLatest, type DB } from "../../db/index";
import { createLocalBus, createRedisBus, type Bus } from "../../device-service/bus";
import type { ParentIdentity } from "../../device-service/context";
import { createCallerFactory } from "../../device-service/trpc";
import { appRouter } from "../../device-service/routers/_app";
import type { Env } from "./env.server";
import { createLogger, type Logger } from "./log.server";

const createCaller = createCallerFactory(appRouter);
export type DeviceCaller = ReturnType<typeof createCaller>;

/**
 * Everything stateful lives here and is created once, by server.ts (or a test), then handed to Remix
 * through the load context. Route modules never open their own connections.
 */
export interface Services {
  env: Env;
  db: DB;
  bus: Bus;
  log: Logger;
  /** The device service as the given parent: authorisation lives in its procedures. */
  device: (parent: ParentIdentity | null) => DeviceCaller;
  close(): Promise<void>;
}

export async function createServices(env: Env): Promise<Services> {
  const log = createLogger(env.LOG_LEVEL);
  const db = createDb({ url: env.databaseKind === "postgres" ? env.DATABASE_URL : env.sqlitePath });
  await migrateToLatest(db);
  const bus = env.REDIS_URL ? createRedisBus(env.REDIS_URL, (m) => log("error", m)) : createLocalBus();
  return {
    env,
    db,
    bus,
    log,
    device: (parent) => createCaller({ db, bus, log, parent }),
    async close() {
      await bus.close();
      await db.destroy();
    },
  };
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    services: Services;
    cspNonce: string;
  }
}
