import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createServer } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { env } from "../core/env.server";
import { throttledLog } from "../core/log";
import { createServices, type Services } from "./services";
import { startHomeAssistantBridge, type HomeAssistantBridge } from "./home-assistant";
import { mountSse } from "../app/utils/sse.server";
import { API_BASE, apiDocsHandler, apiRouter } from "../app/api/router.server";
import { PAGE_CACHE_PATHS, PageCache, isPageCacheGet, pageCacheRoute, type PageCacheStore } from "../app/utils/page-cache.server";
import { securityHeaders, sameOriginPosts } from "../app/utils/security.server";
import { boundedFormBodies, createRemixHandler, isSingleFetchData } from "../app/utils/request-limits.server";
import { forwardAsyncErrors, healthz, outageErrors } from "../device-service/outage";
import { withOutageResponses } from "../app/utils/outage.server";
import { DEMO_USAGE_DAYS, seedIfEmpty } from "../db/seed/index";
import { buildDueReports } from "../jobs/reports/build";
import { mountDeviceService } from "../device-service/http";
import { mountQueueBoard } from "../jobs/queue-board";
import { startDemoPhones, type DemoPhones } from "../device-service/simulator/demo";
import { applyPolicy } from "../device-service/policy/store";
import { createDohHandler } from "../web-filter/servers/doh";
import type { RunningServer } from "../web-filter/servers/dot";
import { resolverCertificate } from "../web-filter/dev-cert";
import type { WebFilterSettings } from "../web-filter/settings";
import type { DotTarget } from "../device-service/simulator/private-dns";

/** Where the demo phones send their lookups: this process's DoT, with the development certificate trusted when in use. */
function demoDotTarget(port: number, settings: WebFilterSettings): DotTarget {
  return { host: "127.0.0.1", port, ...(settings.DNS_TLS_CERT ? {} : { ca: resolverCertificate(settings).cert }) };
}

export interface StartedServer {
  /** Where this process answers (http://localhost:<port>); PUBLIC_URL, printed at start, may be a proxy in front. */
  url: string;
  services: Services;
  /** Rendered dashboards (tests and benches read its hit/miss counts). */
  pageCache: PageCache;
  /** The simulated demo phones, when this process runs them (the journeys drive them, e2e/server.ts). */
  demo?: DemoPhones;
  /** The web filter's DNS-over-TLS port, when the filter is on. */
  dotPort?: number;
  close(): Promise<void>;
}

type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** "not found" lines at most one a second (each with how many were held back since the last). */
export const NOT_FOUND_LOG_MS = 1_000;

export async function startServer(options: { port?: number; quiet?: boolean; simulateDemoDevices?: boolean } = {}): Promise<StartedServer> {
  const e = env();
  const seed: { login: Awaited<ReturnType<typeof seedIfEmpty>> } = { login: null };
  const services = await createServices({
    kind: "web",
    env: e,
    // Seeded before the jobs start, so no job sees half a family; the demo's reports are then built by the report
    // job itself over the seeded usage (back-filled, so no mail), and the start-up run finds them there.
    prepare: async (db) => {
      seed.login = e.SEED_DEMO ? await seedIfEmpty(db) : null;
      if (seed.login)
        await buildDueReports({ db }, { since: new Date(Date.now() - DEMO_USAGE_DAYS * 86_400_000).toISOString().slice(0, 10) });
    },
  });

  const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;

  forwardAsyncErrors();
  const app = express();
  app.disable("x-powered-by");
  // Only hops that really exist: otherwise a client could pick its own address for the rate limits.
  app.set("trust proxy", e.TRUST_PROXY);
  // Query strings as flat names and values (node:querystring), which is all any handler reads (`req.query.token`,
  // `_data`); qs's nested objects and arrays were 3 % of a cached dashboard view's CPU and serve nothing here.
  app.set("query parser", "simple");
  const compress = compression({ filter: (req, res) => !req.path.startsWith("/events") && compression.filter(req, res) });
  // The cached pages' GETs are compressed below the page cache, which sends a hit as stored (gzip already) and sets
  // compression up for everything else it passes on.
  app.use((req, res, next) => (isPageCacheGet(req) ? next() : compress(req, res, next)));
  // A 404 is one JSON line (never a stack), at most one a second with how many were held back: anyone can ask for pages
  // that are not there, and their lines must not fill the day's log file (core/log-files.server.ts).
  const logNotFound = throttledLog(services.log, "not found", NOT_FOUND_LOG_MS);
  app.use((req, res, next) => {
    res.once("finish", () => {
      if (res.statusCode === 404) logNotFound("info", "not found", { method: req.method, path: req.path.slice(0, 200) });
    });
    next();
  });
  // 503 while the database does not answer (load balancers stop sending traffic), 200 again once it does.
  app.get("/healthz", healthz(services.db));
  // The web filter's DNS-over-HTTPS (RFC 8484): before the same-origin check (DoH clients send no Origin) and the
  // form-body limits (the handler reads its own body, 4096 bytes at most); an unknown filter id is 404.
  if (services.webFilterRuntime)
    app.all("/dns-query/:filterId", createDohHandler({ resolver: services.webFilterRuntime.resolver }) as express.RequestHandler);
  // Headers on everything, static files included (nosniff, CSP, HSTS in production).
  app.use(securityHeaders(e));
  // Rendered dashboards and Global Settings pages reused while nothing on them changed (PAGE_CACHE_MB=0 turns it
  // off). Before the static files (no file answers these paths), so a repeat view does not look for one on disk first.
  const pageCache = new PageCache(e.PAGE_CACHE_MB * 1024 * 1024);
  app.get(
    PAGE_CACHE_PATHS,
    pageCacheRoute({
      db: services.db,
      cache: pageCache,
      sessionPolicy: { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteDays: e.SESSION_ABSOLUTE_DAYS },
      compress,
    }),
  );
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  // The open API (docs/api.md): JSON calls authorised by a bearer token alone (never a cookie), so before the
  // same-origin check of the pages' form posts; its reference is a page of this product (no CDN).
  app.use(API_BASE, apiRouter(services));
  app.get("/api/docs", apiDocsHandler());
  app.use(sameOriginPosts({ trustProxy: e.TRUST_PROXY }));

  mountSse(app, services);

  // Path-routed WebSocket upgrades; later parts register theirs here. Unknown paths are destroyed.
  const upgrades = new Map<string, UpgradeHandler>();

  // The device service: /trpc, /device-api (enrollment, kids-app parent login), /admin/queues, /device-socket.
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

  app.all(
    "*",
    // Form bodies bounded (1 MB; the picture form read as it streams, a photo up to 20 MB) and checked before Remix sees them.
    boundedFormBodies(),
    createRemixHandler({
      build: withOutageResponses(build, services.log),
      mode: e.NODE_ENV,
      getLoadContext: (req, res) => ({
        services,
        cspNonce: String(res.locals.cspNonce ?? randomBytes(16).toString("base64")),
        pageCacheStore: res.locals.pageCacheStore as PageCacheStore | undefined,
        pageCacheUntil: res.locals.pageCacheUntil as ((at: Date) => void) | undefined,
        preloaded: res.locals.preloaded as Record<string, unknown> | undefined,
        // Single-fetch data (`….data`) ships everything; a document keeps some markup for its render only.
        documentMarkup: isSingleFetchData(req) ? undefined : new Map(),
      }),
    }),
  );

  // A database outage answers 503 "briefly unavailable" (a page, or JSON for the APIs); other errors go on to Express.
  app.use(outageErrors(services.log));

  const server = createServer(app);
  server.on("upgrade", (req, socket, head) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    const handler = upgrades.get(pathname);
    if (!handler) {
      socket.destroy();
      return;
    }
    handler(req, socket, head);
  });

  const port = options.port ?? e.PORT;
  await new Promise<void>((resolve) => server.listen(port, e.HOST, resolve));
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const url = `http://localhost:${actualPort}`;

  // The web filter's DNS-over-TLS on DNS_DOT_PORT, in this process (`npm run resolver` serves it apart).
  let dot: RunningServer | undefined;
  try {
    if (services.webFilterRuntime?.settings.DNS_DOT_IN_WEB) dot = await services.webFilterRuntime.startDot();
  } catch (err) {
    // The DoT port taken (another `npm start`?): nothing is left listening, and the message says which port.
    server.close();
    await services.close();
    throw new Error(
      `The web filter's DNS-over-TLS could not listen on ${services.webFilterRuntime?.settings.DNS_DOT_PORT}: ${(err as Error).message}`,
    );
  }

  // Home Assistant over MQTT (docs/home-assistant.md): only with MQTT_URL. Started beside the server, not before it: a
  // broker that is away delays the bridge (it keeps trying), never the portal.
  let homeAssistant: Promise<HomeAssistantBridge | undefined> | undefined;
  if (e.MQTT_URL) {
    homeAssistant = startHomeAssistantBridge({
      url: e.MQTT_URL,
      username: e.MQTT_USERNAME,
      password: e.MQTT_PASSWORD,
      discoveryPrefix: e.HOME_ASSISTANT_DISCOVERY_PREFIX,
      db: services.db,
      bus: services.bus,
      log: services.log,
      device: (parent) => services.device(parent),
    }).then(
      (bridge) => {
        services.homeAssistant = bridge;
        return bridge;
      },
      (err: Error) => {
        services.log("error", "home assistant bridge not started", { error: err.message });
        return undefined;
      },
    );
  }

  // The demo family's phones, simulated in-process over the real protocol (SIMULATE_DEMO_DEVICES=false turns it off).
  let demo: DemoPhones | undefined;
  if (e.SIMULATE_DEMO_DEVICES && (options.simulateDemoDevices ?? true)) {
    demo = await startDemoPhones(services.db, `http://127.0.0.1:${actualPort}`, (msg, extra) => services.log("info", msg, extra), {
      ackDelayMs: e.SIMULATOR_ACK_DELAY_MS,
      // Requests of all three kinds, visits, notifications and a moving battery from the first minute (SIMULATOR_DEMO_ACTIVITY).
      activity: e.SIMULATOR_DEMO_ACTIVITY ? {} : undefined,
      // Each demo phone gets its policy as an enrolling phone does, so its simulated usage obeys it.
      applyPolicy: (deviceId) => applyPolicy(services.deviceRuntime.deps, deviceId),
      // Their lookups go through the filter over DoT on this process's port (issue 54 item 4), trusting the development
      // certificate when that is the one in use (self-signed: its own authority); a named one is checked as a phone would.
      dot: dot && services.webFilterRuntime ? demoDotTarget(dot.port, services.webFilterRuntime.settings) : undefined,
    });
  }

  if (!options.quiet) {
    services.log("info", "server started", {
      url: e.PUBLIC_URL ?? url,
      database: e.databaseKind,
      queue: e.REDIS_URL ? "bullmq" : "in-process",
      dnsOverTlsPort: dot?.port,
    });
    console.log(`\n  Kids Portal is running at ${e.PUBLIC_URL ?? url}\n`);
    if (seed.login) console.log(`  Demo family seeded. Sign in with ${seed.login.email} / ${seed.login.password}\n`);
    else if (e.SEED_DEMO) console.log(`  Demo login (if you have not changed it): demo@kids-portal.test / demo-parent-2026\n`);
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await demo?.stop();
      await (await homeAssistant)?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections?.();
        setTimeout(() => {
          server.closeAllConnections?.();
          resolve();
        }, 5_000).unref();
      });
      await services.close();
    })());

  return { url, services, pageCache, close, demo, dotPort: dot?.port };
}

const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;
if (isMain) {
  startServer()
    .then((started) => {
      // Ctrl-C reaches both `npm start`'s script (which passes it on) and the server: a repeat is ignored.
      let stopping = false;
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        started.services.log("info", "shutting down", { signal });
        started.close().then(
          () => process.exit(0),
          (err) => {
            console.error(err);
            process.exit(1);
          },
        );
      };
      process.on("SIGTERM", () => shutdown("SIGTERM"));
      process.on("SIGINT", () => shutdown("SIGINT"));
    })
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
