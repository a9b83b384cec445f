import { randomBytes } from "node:crypto";
import os from "node:os";
import { Redis } from "ioredis";
import type { DB } from "../../db/index";
import { nowIso } from "../../core/ids.server";
import type { LogFn } from "../context";
import { throttledLog } from "../../core/log";
import { notifyParents } from "../notify";
import { setOffline } from "./status-rows";
import type { Bus } from "../bus";

/**
 * Presence across device-service processes (issue 22). Each process with Redis has a name (host:pid:random),
 * stored beside every phone it holds (`device_status.online_process`), and keeps a heartbeat key in Redis
 * that expires PRESENCE_TTL_MS after its last beat. Every process sweeps: the phones marked online by a
 * process whose key is gone (kill -9, a lost machine) are marked offline, and their parents' dashboards hear
 * it. A phone that reconnected to another process meanwhile carries that process's name and is left alone.
 *
 * The sweep every PRESENCE_SWEEP_MS reads the process registry in Redis (a sorted set of names, each beat adds
 * its own), not the database: with 50,000 phones a scan of every online phone's process costs ~10 ms of the
 * database per process per sweep, and grows with the fleet times the processes. The database is touched only
 * for the names whose key is gone, with one indexed update. A full sweep (the scan) runs at start-up and every
 * PRESENCE_FULL_SWEEP_MS, for a Redis that lost the registry.
 */
export const PRESENCE_HEARTBEAT_MS = 2_000;
export const PRESENCE_TTL_MS = 6_000;
export const PRESENCE_SWEEP_MS = 3_000;
/** The backstop sweep, which reads every online phone's process from the database (a Redis that lost the registry). */
export const PRESENCE_FULL_SWEEP_MS = 60_000;
/** A process whose heartbeat is gone stays in the registry this long, so every database's sweepers see it. */
export const PRESENCE_REGISTRY_KEEP_MS = 10 * 60_000;

/** Every process's name, scored by its last heartbeat: the quick sweep reads this, not the database. */
export const PRESENCE_REGISTRY = "kids-portal:device-processes";

const key = (processId: string) => `kids-portal:device-process:${processId}`;
/** Held by the process sweeping a dead one's phones (one sweeper a name at a time). */
const sweepLock = (processId: string) => `kids-portal:device-process-sweep:${processId}`;

export function newProcessId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

export interface Presence {
  processId: string;
  /** One sweep now; returns how many phones it marked offline. */
  sweep(): Promise<number>;
  /** One quick sweep now (the registry's dead names only); returns how many phones it marked offline. */
  quickSweep(): Promise<number>;
  close(): Promise<void>;
}

export interface PresenceOptions {
  redisUrl: string;
  db: DB;
  bus: Bus;
  log: LogFn;
  processId?: string;
  /** The phones this process holds: marked online again after our own heartbeat was lost and came back. */
  held?: () => string[];
  heartbeatMs?: number;
  ttlMs?: number;
  sweepMs?: number;
  fullSweepMs?: number;
  registryKeepMs?: number;
}

export async function startPresence(o: PresenceOptions): Promise<Presence> {
  const processId = o.processId ?? newProcessId();
  const ttl = o.ttlMs ?? PRESENCE_TTL_MS;
  const redis = new Redis(o.redisUrl, { maxRetriesPerRequest: 1, connectionName: `kids-portal:presence:${process.pid}` });
  // A Redis outage: ioredis errors on every reconnection attempt and every beat and sweep fails; the process logs it once
  // per 10 s, sharing the "redis" budget with the bus and the job queues (core/log.ts throttledLog).
  const redisLog = throttledLog(o.log, "redis");
  redis.on("error", (e) => redisLog("warn", "presence: redis", { error: e.message }));
  let lost = false;
  const beat = async () => {
    try {
      await redis.multi().set(key(processId), "1", "PX", ttl).zadd(PRESENCE_REGISTRY, Date.now(), processId).exec();
      if (lost) {
        lost = false;
        // Others may have swept our phones while our beat was missing: they are still here.
        const ids = o.held?.() ?? [];
        for (let i = 0; i < ids.length; i += 500) {
          await o.db
            .updateTable("device_status")
            .set({ online: 1, online_process: processId, updated_at: nowIso() })
            .where("device_id", "in", ids.slice(i, i + 500))
            .execute();
        }
      }
    } catch (err) {
      lost = true;
      redisLog("warn", "presence heartbeat failed", { error: err instanceof Error ? err.message : String(err) });
    }
  };
  // The first beat is awaited: no phone is marked as ours before our key exists (if Redis is away, the beat
  // that finds it again marks our phones online again).
  await beat();

  /**
   * Marks offline the phones still marked online by these (dead) processes; tells their parents. One process sweeps
   * a dead name at a time (a lock in Redis): every process finds the same dead name within a sweep, and the others
   * only waited on the same rows to find them done. The rows are updated in phone id order, 500 at a time, as the
   * status batches write them (socket/status-rows.ts): a sweep and the phones coming back to the other processes
   * take the shared rows in one order (PostgreSQL reported deadlocks between them after kill -9 at 50,000 phones).
   */
  const markOffline = async (dead: string[]): Promise<number> => {
    const locked = await Promise.all(dead.map((name) => redis.set(sweepLock(name), processId, "PX", PRESENCE_SWEEP_MS, "NX")));
    const mine = dead.filter((_, i) => locked[i] === "OK");
    if (!mine.length) return 0;
    const held = await o.db
      .selectFrom("device_status")
      .select("device_id")
      .where("online_process", "in", mine)
      .where("online", "=", 1)
      .execute();
    const ids = await setOffline(
      o.db,
      held.map((r) => r.device_id),
      mine,
    );
    if (!ids.length) return 0;
    o.log("info", "phones of a stopped device process marked offline", { processes: mine, phones: ids.length });
    const profiles = new Set<string>();
    for (let j = 0; j < ids.length; j += 500) {
      const rows = await o.db
        .selectFrom("devices")
        .select("profile_id")
        .distinct()
        .where("id", "in", ids.slice(j, j + 500))
        .execute();
      for (const r of rows) profiles.add(r.profile_id);
    }
    // Together: the parents' reads are coalesced (device-service/parents.ts), one after another they were one each.
    await Promise.all([...profiles].map((p) => notifyParents(o, p, "device.status")));
    return ids.length;
  };

  /** Of these process names, those whose heartbeat key is gone. */
  const deadOf = async (names: string[]): Promise<string[]> => {
    if (!names.length) return [];
    const alive = await redis.mget(names.map(key));
    return names.filter((_, i) => alive[i] === null);
  };

  const quickSweep = async (): Promise<number> => {
    await redis.zremrangebyscore(PRESENCE_REGISTRY, "-inf", Date.now() - (o.registryKeepMs ?? PRESENCE_REGISTRY_KEEP_MS));
    const names = (await redis.zrange(PRESENCE_REGISTRY, 0, -1)).filter((n) => n !== processId);
    return markOffline(await deadOf(names));
  };

  const fullSweep = async (): Promise<number> => {
    const procs = await o.db
      .selectFrom("device_status")
      .select("online_process")
      .distinct()
      .where("online", "=", 1)
      .where("online_process", "is not", null)
      .where("online_process", "!=", processId)
      .execute();
    return markOffline(await deadOf(procs.map((p) => p.online_process as string)));
  };

  let sweeping = false;
  const safely = (run: () => Promise<number>) => () => {
    if (sweeping) return;
    sweeping = true;
    run()
      .catch((err: unknown) => redisLog("warn", "presence sweep failed", { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => (sweeping = false));
  };
  const beats = setInterval(() => void beat(), o.heartbeatMs ?? PRESENCE_HEARTBEAT_MS);
  const sweeps = setInterval(safely(quickSweep), o.sweepMs ?? PRESENCE_SWEEP_MS);
  const fullSweeps = setInterval(safely(fullSweep), o.fullSweepMs ?? PRESENCE_FULL_SWEEP_MS);
  beats.unref();
  sweeps.unref();
  fullSweeps.unref();
  safely(fullSweep)();

  return {
    processId,
    sweep: async () => (await fullSweep()) + (await quickSweep()),
    quickSweep,
    async close() {
      clearInterval(beats);
      clearInterval(sweeps);
      clearInterval(fullSweeps);
      await redis
        .multi()
        .del(key(processId))
        .zrem(PRESENCE_REGISTRY, processId)
        .exec()
        .catch(() => {});
      await redis.quit().catch(() => {});
    },
  };
}
