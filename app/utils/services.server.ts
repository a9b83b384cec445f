import { createDb, migrateToLatest, type DB } from "../../db/index";
import { createLocalBus, createRedisBus, type Bus } from "../../device-service/bus";
import type { ParentIdentity } from "../../device-service/context";
import { createDeviceCaller, type DeviceCaller } from "../../device-service/caller";
import { createDeviceRuntime, type DeviceRuntime } from "../../device-service/runtime";
import { createRemoteDevice } from "../../device-service/remote";
import type { Env } from "./env.server";
import { createLogger, type Logger } from "./log.server";
import type { PageCacheStore } from "./page-cache.server";

export type { DeviceCaller };

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
  /** The device service's runtime (socket gateway, jobs, push): server.ts mounts it. */
  deviceRuntime: DeviceRuntime;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Run job workers in this process (default true; `npm run worker` runs them alone). */
  runWorkers?: boolean;
  queuePrefix?: string;
}

export async function createServices(env: Env, opts: ServiceOptions = {}): Promise<Services> {
  const log = createLogger(env.LOG_LEVEL);
  const db = createDb({ url: env.databaseKind === "postgres" ? env.DATABASE_URL : env.sqlitePath });
  await migrateToLatest(db);
  const bus = env.REDIS_URL ? createRedisBus(env.REDIS_URL, (m) => log("error", m)) : createLocalBus();
  const deviceRuntime = await createDeviceRuntime({
    db,
    bus,
    log,
    redisUrl: env.REDIS_URL || undefined,
    queuePrefix: opts.queuePrefix,
    runWorkers: opts.runWorkers,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    fcm: { projectId: env.FCM_PROJECT_ID, clientEmail: env.FCM_CLIENT_EMAIL, privateKey: env.FCM_PRIVATE_KEY },
  });
  const deps = deviceRuntime.deps;
  return {
    env,
    db,
    bus,
    log,
    deviceRuntime,
    // In-process by default; over HTTP to a separately deployed device service when DEVICE_SERVICE_URL is set.
    device: env.DEVICE_SERVICE_URL ? createRemoteDevice(env.DEVICE_SERVICE_URL, env.DEVICE_SERVICE_KEY) : (parent) => createDeviceCaller({ ...deps, parent }),
    async close() {
      await deviceRuntime.close();
      await bus.close();
      await db.destroy();
    },
  };
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    services: Services;
    cspNonce: string;
    /** Set on a page-cache miss: entry.server hands it the rendered document (app/utils/page-cache.server.ts). */
    pageCacheStore?: PageCacheStore;
    /** Reads already made for this GET request before Remix (perRequest keys: "parent", "kids"). */
    preloaded?: Record<string, unknown>;
  }
}
