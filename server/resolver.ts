/**
 * `npm run resolver`: the web filter's DNS-over-TLS alone (docs/web-filter.md), for deployments that serve it apart
 * from the web processes (port 853 on its own address). It holds the filter ids and every kid's policy in memory and
 * hears their changes on the bus (Redis), so it needs REDIS_URL; `npm start` serves DoT in the web process.
 * Graceful on SIGTERM/SIGINT.
 */
import { env, prepareDataDir, publicOrigin } from "../core/env.server";
import { createLogger, throttledLog } from "../core/log";
import { createLogFileSink, serverLogDir } from "../core/log-files.server";
import { createDb, migrateToLatest } from "../db/index";
import { createRedisBus } from "../device-service/bus";
import { syncCuratedLists } from "../web-filter/lists/curated-sync";
import { createWebFilter } from "./web-filter";

async function main() {
  const e = env();
  if (!e.REDIS_URL)
    throw new Error(
      "npm run resolver needs REDIS_URL (it hears the parents' changes there). Without it, `npm start` serves DoT in-process.",
    );
  prepareDataDir(e.DATA_DIR);
  const logFiles = createLogFileSink({ dir: serverLogDir(e.DATA_DIR), processName: `resolver-${process.pid}` });
  const log = createLogger(e.LOG_LEVEL, { sink: logFiles });
  const db = createDb({
    url: e.databaseKind === "postgres" ? e.DATABASE_URL : e.sqlitePath,
    onError: (err) => log("warn", "database connection lost", { error: err.message }),
    namedStatements: e.PG_NAMED_STATEMENTS,
  });
  await migrateToLatest(db);
  // The shipped category lists, as every process's start-up writes them (idempotent), before they are loaded.
  await syncCuratedLists(db);
  const redisLog = throttledLog(log, "redis");
  // The parents' messages are not for this process; `web-filter.kid` travels on the channel it hears.
  const bus = createRedisBus(e.REDIS_URL, (m) => redisLog("error", m), { hears: "device" });
  const filter = await createWebFilter({
    db,
    bus,
    log,
    publicUrl: publicOrigin(e),
    env: { ...process.env, NODE_ENV: e.NODE_ENV, DATA_DIR: e.DATA_DIR },
  });
  if (!filter) throw new Error("npm run resolver with WEB_FILTER=false: nothing to serve.");
  const dot = await filter.startDot();
  log("info", "resolver started", { dnsOverTlsPort: dot.port, filterDomain: filter.settings.DNS_FILTER_DOMAIN });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log("info", "resolver shutting down", { signal });
    await filter.close();
    await bus.close();
    await db.destroy();
    await logFiles.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
