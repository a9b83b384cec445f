/**
 * The device service as a process of its own (no Remix): /trpc, /device-api, /device-socket,
 * /admin/queues and /healthz. `npx tsx device-service/server.ts` with the same env as server.ts; several
 * copies share the fleet through REDIS_URL. server.ts mounts exactly the same pieces beside Remix.
 */
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import express from "express";
import { env } from "../app/utils/env.server";
import { createServices, type Services } from "../app/utils/services.server";
import { mountDeviceService, type UpgradeHandler } from "./http";

export interface DeviceServer {
  url: string;
  port: number;
  services: Services;
  close(): Promise<void>;
}

export async function startDeviceServer(o: { port?: number; host?: string } = {}): Promise<DeviceServer> {
  const e = env();
  const services = await createServices(e);
  const app = express();
  app.disable("x-powered-by");
  app.get("/healthz", (_req, res) => {
    res.json({ ok: true, sockets: services.deviceRuntime.gateway.count() });
  });
  const upgrades = new Map<string, UpgradeHandler>();
  mountDeviceService(app, upgrades, {
    runtime: services.deviceRuntime,
    sessionPolicy: { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteDays: e.SESSION_ABSOLUTE_DAYS },
    kidsAppApiKey: e.KIDS_APP_API_KEY,
    serviceKey: e.DEVICE_SERVICE_KEY,
  });
  const server = createServer(app);
  server.on("upgrade", (req, socket, head) => {
    const handler = upgrades.get(new URL(req.url ?? "/", "http://localhost").pathname);
    if (handler) handler(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? e.PORT, o.host ?? e.HOST, resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : (o.port ?? e.PORT);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    services,
    async close() {
      await services.deviceRuntime.gateway.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
      await services.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  startDeviceServer().then(
    (s) => {
      console.log(`device service listening on ${s.url}`);
      const stop = () => void s.close().then(() => process.exit(0));
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
