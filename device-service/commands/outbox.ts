import { sql } from "kysely";
import type { DB } from "../../db/index";
import { commitWithoutFlushWait } from "../../db/commit";
import { executeTemplate } from "../../db/compiled";
import { newId, nowIso } from "../../core/ids.server";
import type { CommandStatus, DeviceCommand } from "../../db/schema-device-service";
import type { CarriedCommand } from "../bus";
import type { DeviceServiceDeps } from "../context";
import { notifyParents } from "../notify";
import { parentIdsForKid } from "../parents";
import { enqueueWebhookEvent } from "../webhooks";
import { coalesce, groupBy, type Coalesced } from "../coalesce";
import { ONE_SHOT_TTL_MS, type CommandType } from "./types";

export const OPEN_STATUSES: CommandStatus[] = ["queued", "sent"];

export interface IssueInput {
  deviceId: string;
  type: CommandType;
  payload?: Record<string, unknown>;
  issuedBy?: string | null;
  /** null: never expires (policies, which are superseded instead). Default 10 minutes. */
  ttlMs?: number | null;
  policyVersion?: number | null;
  /**
   * Whether the phone was connected when the caller read it, before the command was stored (a command procedure's
   * first read). Read as connected, the phone is reached through the bus without asking again whether to push; one
   * that dropped meanwhile gets the command when it reconnects, as it would had it dropped a moment later.
   */
  online?: boolean;
}

/** The command as the phone receives it: `{event: "command", id: <command id>, data: CommandFrameData}`. */
export interface CommandFrameData {
  type: CommandType;
  payload: Record<string, unknown>;
  issuedAt: string;
  expiresAt: string | null;
}

export function frameData(c: CarriedCommand): CommandFrameData {
  return {
    type: c.type as CommandType,
    payload: JSON.parse(c.payload) as Record<string, unknown>,
    issuedAt: c.created_at,
    expiresAt: c.expires_at,
  };
}

/**
 * Commands are delivered in created_at order: two issued within the same millisecond by this process get
 * distinct, increasing timestamps (a command is stamped at most a few ms ahead under a burst), so the order
 * a parent issued them in is the order the phone receives them, on whichever process holds its socket.
 */
let lastIssuedMs = 0;
function issueTime(): Date {
  lastIssuedMs = Math.max(Date.now(), lastIssuedMs + 1);
  return new Date(lastIssuedMs);
}

/**
 * Stores the command (the outbox row is the source of truth), schedules its expiry, then dispatches it:
 * to the socket if the phone is connected to this process, to whichever process holds it (bus), and
 * through the push transport when the phone is offline.
 *
 * Nothing half-done: an error before the insert commits (a saturated pool, a lost database) fails the call
 * and nothing is stored; once it has committed, the command is issued and this never fails — a dispatch
 * that cannot run now is logged and the outbox delivers the command anyway (the gateway retries a failed
 * delivery while the phone is connected; a phone that connects gets everything still open). Callers read what
 * they need to answer (e.g. whether the phone is online) before calling this, so their answer cannot fail
 * after the command went out.
 */
export async function issueCommand(deps: DeviceServiceDeps, input: IssueInput): Promise<DeviceCommand> {
  const now = issueTime();
  const ttl = input.ttlMs === undefined ? ONE_SHOT_TTL_MS : input.ttlMs;
  const row: DeviceCommand = {
    id: newId(),
    device_id: input.deviceId,
    type: input.type,
    payload: JSON.stringify(input.payload ?? {}),
    status: "queued",
    policy_version: input.policyVersion ?? null,
    attempts: 0,
    issued_by: input.issuedBy ?? null,
    error: null,
    result: null,
    created_at: nowIso(now),
    sent_at: null,
    completed_at: null,
    expires_at: ttl === null ? null : nowIso(new Date(now.getTime() + ttl)),
  };
  await executeTemplate(deps.db, "issueCommand", row, (v) => deps.db.insertInto("device_commands").values(v));
  const sending = dispatch(deps, input.deviceId, [row], input.online);
  // The expiry is scheduled while the command goes out (one wait, not two), after the command's own message (Redis
  // would otherwise answer it after the job's script); usually it is already scheduled for this second.
  const expiry = row.expires_at === null ? undefined : scheduleExpiry(deps, Date.parse(row.expires_at));
  try {
    // Sent from here (this process's socket, or push), the row changed: read it again. Handed to the bus, it is as
    // stored until another process sends it, and reading it again would only cost a round trip.
    const sent = await sending;
    return sent === "sent here" ? ((await findCommand(deps.db, row.id)) ?? row) : row;
  } catch (err) {
    deps.log("warn", "command stored, dispatch deferred", {
      commandId: row.id,
      deviceId: input.deviceId,
      error: err instanceof Error ? err.message : String(err),
    });
    return row;
  } finally {
    await expiry;
  }
}

/**
 * Sends a phone its open commands: at once when its socket is on this process, else through the bus (to the process
 * holding it) and, for `fresh` commands of a phone connected nowhere, by push. "sent here" when this process sent
 * them (socket or push), so their rows changed. `knownOnline`: the caller read the phone as connected (IssueInput's
 * `online`), so whether to push is not read again.
 */
export async function dispatch(
  deps: DeviceServiceDeps,
  deviceId: string,
  fresh: DeviceCommand[] = [],
  knownOnline = false,
): Promise<"sent here" | "handed on"> {
  const carried = carriable(deps, fresh);
  if (deps.connections?.has(deviceId)) {
    await deps.connections.deliver(deviceId, { carried });
    return "sent here";
  }
  const published = deps.bus
    .publish({ type: "device.command", deviceId, ...(carried ? { commands: carried } : {}) })
    .catch((err: unknown) => {
      deps.log("warn", "device.command not published", { deviceId, error: err instanceof Error ? err.message : String(err) });
    });
  if (!deps.push || fresh.length === 0 || knownOnline) {
    await published;
    return "handed on";
  }
  // Whether to push is read while the bus carries the message (one wait, not two). A phone that connects meanwhile
  // gets the command on connecting (and perhaps a needless push); one that drops meanwhile gets it on its return, as
  // it would had it dropped a moment after a read made in turn.
  const [, status] = await Promise.all([
    published,
    deps.db.selectFrom("device_status").select("online").where("device_id", "=", deviceId).executeTakeFirst(),
  ]);
  if (status?.online) return "handed on"; // connected to another process: the bus carries it there
  const device = await deps.db.selectFrom("devices").select(["id", "fcm_token"]).where("id", "=", deviceId).executeTakeFirst();
  if (!device) return "handed on";
  let pushed = false;
  for (const c of fresh) {
    try {
      const r = await deps.push.send(
        { deviceId, fcmToken: device.fcm_token },
        { commandId: c.id, type: c.type, data: { payload: c.payload.slice(0, 2000) } },
      );
      if (r === "sent") {
        pushed = true;
        await deps.db
          .updateTable("device_commands")
          .set((eb) => ({ status: "sent", sent_at: nowIso(), attempts: eb("attempts", "+", 1) }))
          .where("id", "=", c.id)
          .where("status", "=", "queued")
          .execute();
      }
    } catch (err) {
      // The command stays queued and is delivered when the phone connects.
      deps.log("warn", "push failed", {
        deviceId,
        commandId: c.id,
        transport: deps.push.name,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return pushed ? "sent here" : "handed on";
}

/**
 * Expiries are swept per second: the commands that expire within one second share one `command-expiry` job, which runs
 * just after that second and closes every open command then overdue, telling each kid's parents (jobs/processors/
 * command-expiry.ts). A job per command cost each one a delayed job's round trips in Redis and, ten minutes later, a
 * worker's four more (measured on a 2-core EPYC). The job id names the second, so every process schedules it at
 * most once (and a process remembers the seconds it has scheduled, so it asks Redis once per second of expiries).
 */
export const EXPIRY_SWEEP_MS = 1000;
const scheduledSweeps = new WeakMap<object, Map<number, Promise<void>>>();

/** Schedules the sweep of the second `expiresAtMs` falls in (once per process and second); never fails. */
export function scheduleExpiry(deps: Pick<DeviceServiceDeps, "jobs" | "log">, expiresAtMs: number): Promise<void> | undefined {
  const jobs = deps.jobs;
  if (!jobs) return undefined;
  const at = Math.ceil(expiresAtMs / EXPIRY_SWEEP_MS) * EXPIRY_SWEEP_MS;
  let scheduled = scheduledSweeps.get(jobs);
  if (!scheduled) scheduledSweeps.set(jobs, (scheduled = new Map()));
  const known = scheduled.get(at);
  if (known) return known;
  if (scheduled.size >= 4096) for (const past of scheduled.keys()) if (past < Date.now()) scheduled.delete(past);
  const sweeps = scheduled;
  const until = nowIso(new Date(at));
  const enqueued = jobs
    .enqueue("command-expiry", { until }, { delayMs: Math.max(0, at - Date.now()) + 250, jobId: `expire-at-${at}` })
    .catch((err: unknown) => {
      // Asked again by the next command of that second; the start-up recovery and the minute's sweep close it anyway.
      sweeps.delete(at);
      deps.log("warn", "command expiry not scheduled", { until, error: err instanceof Error ? err.message : String(err) });
    });
  sweeps.set(at, enqueued);
  return enqueued;
}

/** Commands to (re)deliver: queued ones, and with includeSent the sent-but-unacknowledged ones. Expired ones are closed on the way. */
export async function pendingCommands(db: DB, deviceId: string, includeSent: boolean, now = new Date()): Promise<DeviceCommand[]> {
  const rows = (await openCommandsReader(db, includeSent)(deviceId)) ?? [];
  const live: DeviceCommand[] = [];
  for (const r of rows) {
    if (r.expires_at && r.expires_at <= nowIso(now)) await expireCommand({ db }, r.id, now);
    else live.push(r);
  }
  return live;
}

/** A command's payload carried in its announcement at most this long; a longer one is read from the outbox. */
export const CARRIED_PAYLOAD_MAX = 2048;

/**
 * The new commands an announcement carries to the phone's process, which sends them before it reads the outbox (one
 * statement less before the frame on a busy process): committed one-shot commands with small payloads. A policy is not
 * carried: a newer one supersedes it in the outbox, which the read sees. Nor is a command stored inside a transaction
 * that has not committed yet.
 */
function carriable(deps: DeviceServiceDeps, fresh: DeviceCommand[]): CarriedCommand[] | undefined {
  if (!fresh.length || deps.db.isTransaction) return undefined;
  if (fresh.some((c) => c.type === "APPLY_POLICY" || c.payload.length > CARRIED_PAYLOAD_MAX)) return undefined;
  return fresh.map((c) => ({ id: c.id, type: c.type, payload: c.payload, created_at: c.created_at, expires_at: c.expires_at }));
}

/** Open commands a phone is given at once, oldest first. */
const DELIVERY_BATCH = 200;

/**
 * The outbox reads of many phones at once go together (device-service/coalesce.ts): every phone reads its outbox
 * when it connects, so a reconnect storm asks for thousands. One reader per database handle and kind of read.
 */
const openReaders = new WeakMap<DB, [Coalesced<DeviceCommand[]>, Coalesced<DeviceCommand[]>]>();
function openCommandsReader(db: DB, includeSent: boolean): Coalesced<DeviceCommand[]> {
  let pair = openReaders.get(db);
  if (!pair) {
    pair = [coalesce((ids) => openCommandsOf(db, ids, false)), coalesce((ids) => openCommandsOf(db, ids, true))];
    openReaders.set(db, pair);
  }
  return pair[includeSent ? 1 : 0];
}

/** Each phone's first DELIVERY_BATCH open commands, in the order they were issued: one query for all the phones. */
async function openCommandsOf(db: DB, deviceIds: string[], includeSent: boolean): Promise<Map<string, DeviceCommand[]>> {
  const statuses = includeSent ? OPEN_STATUSES : ["queued" as const];
  if (deviceIds.length === 1) {
    const rows = await db
      .selectFrom("device_commands")
      .selectAll()
      .where("device_id", "=", deviceIds[0]!)
      .where("status", "in", statuses)
      .orderBy("created_at")
      .orderBy("id")
      .limit(DELIVERY_BATCH)
      .execute();
    return new Map([[deviceIds[0]!, rows]]);
  }
  const ranked = db
    .selectFrom("device_commands")
    .selectAll()
    .select(sql<number>`row_number() over (partition by device_id order by created_at, id)`.as("kp_rank"))
    .where("device_id", "in", deviceIds)
    .where("status", "in", statuses)
    .as("c");
  const rows = await db
    .selectFrom(ranked)
    .selectAll()
    .where("kp_rank", "<=", DELIVERY_BATCH)
    .orderBy("device_id")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return groupBy(
    rows.map(({ kp_rank: _rank, ...r }) => r as DeviceCommand),
    (r) => r.device_id,
  );
}

export async function markSent(db: DB, commandIds: string[]): Promise<void> {
  if (!commandIds.length) return;
  await db
    .updateTable("device_commands")
    .set((eb) => ({ status: "sent", sent_at: nowIso(), attempts: eb("attempts", "+", 1) }))
    .where("id", "in", commandIds)
    .where("status", "in", OPEN_STATUSES)
    // A lost "sent" mark only sends the command again (the phone ignores the copy by id); waiting for the flush
    // held the row lock the phone's acknowledgement queues on (db/commit.ts).
    .where(commitWithoutFlushWait(db))
    .execute();
}

export async function findCommand(db: DB, id: string): Promise<DeviceCommand | undefined> {
  return db.selectFrom("device_commands").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Closes a command that is still open past its expiry. Idempotent; returns whether it changed anything. */
export async function expireCommand(
  deps: Pick<DeviceServiceDeps, "db">,
  commandId: string,
  now = new Date(),
  reason = "expired before the phone acknowledged it",
): Promise<boolean> {
  const res = await deps.db
    .updateTable("device_commands")
    .set({ status: "expired", completed_at: nowIso(now), error: reason })
    .where("id", "=", commandId)
    .where("status", "in", OPEN_STATUSES)
    .where("expires_at", "<=", nowIso(now))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export interface AckInput {
  commandId: string;
  status: "acknowledged" | "failed";
  result?: unknown;
  error?: string;
}

/**
 * The phone acknowledges by command id. Idempotent: a repeated ack changes nothing. An acknowledged
 * APPLY_POLICY marks its policy version applied; the kid's parents hear about it on their dashboards.
 */
export async function acknowledgeCommand(
  deps: DeviceServiceDeps,
  deviceId: string,
  ack: AckInput,
  profileId?: string,
): Promise<DeviceCommand | undefined> {
  const now = nowIso();
  // When the socket knows the phone's kid, its parents are read beside the update rather than after it (one round
  // trip fewer on the way to their dashboards); a repeated ack wastes that read.
  const parents = profileId ? parentIdsForKid(deps.db, profileId) : undefined;
  parents?.catch(() => {}); // awaited below unless this returns early; notifyParents reports its failure
  // The usual case is one round trip: the open command is closed and its row comes back. Anything else (an
  // unknown id, another phone's command, a repeated ack) is told apart by reading the row afterwards.
  const closed = await deps.db
    .updateTable("device_commands")
    .set({
      status: ack.status,
      completed_at: now,
      result: ack.result === undefined ? null : JSON.stringify(ack.result).slice(0, 10_000),
      error: ack.error?.slice(0, 500) ?? null,
    })
    .where("id", "=", ack.commandId)
    .where("device_id", "=", deviceId)
    .where("status", "in", OPEN_STATUSES)
    // A lost acknowledgement is repaired by the protocol (db/commit.ts): the command is redelivered and acknowledged again.
    .where(commitWithoutFlushWait(deps.db))
    .returningAll()
    .executeTakeFirst();
  if (!closed)
    return deps.db
      .selectFrom("device_commands")
      .selectAll()
      .where("id", "=", ack.commandId)
      .where("device_id", "=", deviceId)
      .executeTakeFirst();
  if (closed.type === "APPLY_POLICY" && closed.policy_version !== null && ack.status === "acknowledged") {
    await deps.db
      .updateTable("device_policies")
      .set({ acknowledged_at: now })
      .where("device_id", "=", deviceId)
      .where("version", "=", closed.policy_version)
      .where("acknowledged_at", "is", null)
      .execute();
  }
  // The socket knows the phone's kid; other callers have it read.
  const kid =
    profileId ?? (await deps.db.selectFrom("devices").select("profile_id").where("id", "=", deviceId).executeTakeFirst())?.profile_id;
  if (kid) await notifyParents(deps, kid, `command.${ack.status}`, { parents, commandId: closed.id });
  // The parents' webhooks (not awaited: a phone's acknowledgement never waits on them; it never throws).
  if (kid && ack.status === "acknowledged")
    void enqueueWebhookEvent(deps, {
      type: "command.acknowledged",
      profileId: kid,
      eventId: `msg_cmd_${closed.id}`,
      at: now,
      data: { commandId: closed.id, command: closed.type, deviceId },
    });
  return closed;
}

export async function recentCommands(db: DB, deviceId: string, limit = 20) {
  const rows = await db
    .selectFrom("device_commands")
    .selectAll()
    .where("device_id", "=", deviceId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  const now = nowIso();
  return rows.map((r) => ({
    id: r.id,
    type: r.type as CommandType,
    // An open command past its expiry reads as expired even before the sweep closes it.
    status: (OPEN_STATUSES.includes(r.status) && r.expires_at && r.expires_at <= now ? "expired" : r.status) as CommandStatus,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    policyVersion: r.policy_version,
    attempts: r.attempts,
    error: r.error,
    result: r.result ? (JSON.parse(r.result) as unknown) : null,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    completedAt: r.completed_at,
    expiresAt: r.expires_at,
  }));
}

/** Every open command past its expiry, closed (the one update both sweeps run). */
function closeOverdue(db: DB, now: Date) {
  return db
    .updateTable("device_commands")
    .set({ status: "expired", completed_at: nowIso(now), error: "expired before the phone acknowledged it" })
    .where("status", "in", OPEN_STATUSES)
    .where("expires_at", "is not", null)
    .where("expires_at", "<=", nowIso(now));
}

/** The per-second sweep (jobs/processors/command-expiry.ts): closes every overdue open command; the kids whose phones had one, to tell their parents. */
export async function expireOverdueKids(db: DB, now = new Date()): Promise<{ expired: number; profileIds: string[] }> {
  const rows = await closeOverdue(db, now).returning("device_id").execute();
  const deviceIds = [...new Set(rows.map((r) => r.device_id))];
  const profileIds = new Set<string>();
  for (let i = 0; i < deviceIds.length; i += 1000) {
    const kids = await db
      .selectFrom("devices")
      .select("profile_id")
      .where("id", "in", deviceIds.slice(i, i + 1000))
      .execute();
    for (const k of kids) profileIds.add(k.profile_id);
  }
  return { expired: rows.length, profileIds: [...profileIds] };
}

/** Start-up and the minute's backstop sweep: closes every open command past its expiry. Returns how many. */
export async function expireOverdue(db: DB, now = new Date()): Promise<number> {
  const res = await closeOverdue(db, now).executeTakeFirst();
  return Number(res.numUpdatedRows);
}
