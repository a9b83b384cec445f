/**
 * The device service as a process of its own (no Remix): /trpc, /device-api, /device-socket,
 * /admin/queues and /healthz. `npx tsx server/device.ts` with the same env as the web process; several
 * copies share the fleet through REDIS_URL. server/web.ts mounts exactly the same pieces beside Remix.
 * DEVICE_PROCESSES=N (with REDIS_URL) runs N such processes behind the one PORT (device-service/cluster.ts).
 */
import cluster from "node:cluster";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import express from "express";
import { env } from "../core/env.server";
import { createDb, migrateToLatest } from "../db/index";
import { listenWithCap, type Admission } from "../device-service/admission";
import { listenTogether, runDeviceCluster } from "../device-service/cluster";
import { forwardAsyncErrors, healthz, outageErrors } from "../device-service/outage";
import { createServices, type ServiceOptions, type Services } from "./services";
import { mountDeviceService, type UpgradeHandler } from "../device-service/http";
import { mountQueueBoard } from "../jobs/queue-board";

export interface DeviceServer {
  url: string;
  port: number;
  services: Services;
  close(): Promise<void>;
}

export async function startDeviceServer(
  o: { port?: number; host?: string; services?: Omit<ServiceOptions, "kind" | "env"> } = {},
): Promise<DeviceServer> {
  const e = env();
  const services = await createServices({ ...o.services, kind: "device", env: e });
  forwardAsyncErrors();
  const app = express();
  app.disable("x-powered-by");
  app.get(
    "/healthz",
    healthz(services.db, () => ({ sockets: services.deviceRuntime.gateway.count(), accepting: listening.admission?.accepting() ?? true })),
  );
  // The listener is made after the routes; /healthz reads it when asked.
  const listening: { admission?: Admission } = {};
  const upgrades = new Map<string, UpgradeHandler>();
  mountDeviceService(app, upgrades, {
    runtime: services.deviceRuntime,
    sessionPolicy: { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteDays: e.SESSION_ABSOLUTE_DAYS },
    kidsAppApiKey: e.KIDS_APP_API_KEY,
    accounts: { env: e },
    serviceKey: e.DEVICE_SERVICE_KEY,
  });
  mountQueueBoard(app, {
    db: services.db,
    jobs: services.jobs,
    sessionPolicy: { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteDays: e.SESSION_ABSOLUTE_DAYS },
  });
  app.use(outageErrors(services.log));
  const server = createServer(app);
  server.on("upgrade", (req, socket, head) => {
    const handler = upgrades.get(new URL(req.url ?? "/", "http://localhost").pathname);
    if (handler) handler(req, socket, head);
    else socket.destroy();
  });
  // A cluster's first workers listen together (device-service/cluster.ts); a single process goes straight on.
  await listenTogether();
  // The listener stops accepting before this process runs out of open files (the others behind the port go on).
  const admission = await listenWithCap(server, {
    port: o.port ?? e.PORT,
    host: o.host ?? e.HOST,
    max: e.DEVICE_MAX_CONNECTIONS,
    log: (msg, extra) => services.log("warn", msg, extra),
  });
  listening.admission = admission;
  const port = admission.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    services,
    async close() {
      await services.deviceRuntime.gateway.close();
      await admission.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
      await services.close();
    },
  };
}

/** The migrations, once, before the workers start (each would otherwise race the others on them). */
async function migrateOnce(): Promise<void> {
  const e = env();
  const db = createDb({ url: e.databaseKind === "postgres" ? e.DATABASE_URL : e.sqlitePath, namedStatements: e.PG_NAMED_STATEMENTS });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const e = env();
  if (e.DEVICE_PROCESSES > 1 && cluster.isPrimary) {
    const c = await runDeviceCluster({
      processes: e.DEVICE_PROCESSES,
      scheduling: e.DEVICE_CLUSTER_SCHEDULING,
      log: (m) => console.log(m),
      prepare: migrateOnce,
    });
    console.log(
      `device service listening on http://127.0.0.1:${e.PORT} (${e.DEVICE_PROCESSES} processes: ${c
        .workers()
        .map((w) => w.process.pid)
        .join(", ")})`,
    );
    const stop = () => void c.stop().then(() => process.exit(0));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    return;
  }
  const s = await startDeviceServer();
  if (!cluster.isWorker) console.log(`device service listening on ${s.url}`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
