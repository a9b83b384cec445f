/**
 * Phones' status rows (device_status): the statuses phones send, written in batches, and the phones marked offline
 * when their sockets close. Both take the rows in phone id order, as the presence sweep does (socket/presence.ts):
 * PostgreSQL reported deadlocks between them after kill -9 of a device process at 50,000 phones.
 */
import type { DB } from "../../db/index";
import { retryOnConflict } from "../../db/retry";
import { nowIso } from "../../core/ids.server";
import { coalesceWrites, groupBy, type CoalescedWrite } from "../coalesce";

export type StatusValues = Partial<{
  battery_percentage: number;
  battery_checked_at: string;
  wifi_connected: number;
  kids_app_status: string;
  additional_data: string | null;
  app_version: string;
  protection_state: number;
  online: number;
  free_storage_mb: number;
  online_process: string | null;
  private_dns_mode: string;
  private_dns_hostname: string | null;
  private_dns_changed_at: string;
}>;

/**
 * A phone's status row, written with the other phones' statuses asked for at the same time: one statement per
 * set of fields for the whole batch (a reconnect storm brings thousands at once; one round trip and one commit
 * each was the cost). Resolves once the batch is committed.
 */
export function upsertStatus(db: DB, deviceId: string, values: StatusValues): Promise<void> {
  let put = statusWriters.get(db);
  if (!put) {
    put = coalesceWrites<StatusValues & { updated_at: string }>((batch) => writeStatuses(db, batch));
    statusWriters.set(db, put);
  }
  // A field left undefined is left as it is (it must not join the batch's column list as a null).
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as StatusValues;
  return put(deviceId, { ...defined, updated_at: nowIso() });
}

const statusWriters = new WeakMap<DB, CoalescedWrite<StatusValues & { updated_at: string }>>();

async function writeStatuses(db: DB, batch: Map<string, StatusValues & { updated_at: string }>): Promise<void> {
  // Rows with the same fields go in one INSERT … ON CONFLICT DO UPDATE of exactly those fields, in phone id order:
  // PostgreSQL locks the rows in the order given, so batches of several processes, and the presence sweep
  // (socket/presence.ts, also in id order), take shared rows in one order. A deadlock that still happens (the
  // kids' revisions, moved by the table's trigger) ends one statement; it is written again (the write is idempotent).
  const groups = groupBy(
    [...batch].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([device_id, values]) => ({ device_id, values })),
    (r) => Object.keys(r.values).sort().join(","),
  );
  for (const rows of groups.values()) {
    const fields = Object.keys(rows[0].values) as (keyof StatusValues | "updated_at")[];
    await retryOnConflict(() =>
      db
        .insertInto("device_status")
        .values(
          rows.map((r) => ({
            device_id: r.device_id,
            battery_percentage: null,
            battery_checked_at: null,
            additional_data: null,
            app_version: null,
            ...r.values,
          })),
        )
        .onConflict((oc) => oc.column("device_id").doUpdateSet((eb) => Object.fromEntries(fields.map((f) => [f, eb.ref(`excluded.${f}`)]))))
        .execute(),
    );
  }
}

/**
 * Marks phones offline when their sockets on this process closed, unless another process holds them by now (a phone
 * that reconnected elsewhere before this process noticed the close stays online); the presence sweep passes the
 * dead processes' names. Many at once go in statements of 500, in phone id order (as the status batches take the
 * rows). Returns the phones marked offline.
 */
export async function setOffline(
  db: DB,
  deviceIds: string | readonly string[],
  heldBy: string | readonly string[] | null,
): Promise<string[]> {
  const ids = [...new Set(typeof deviceIds === "string" ? [deviceIds] : deviceIds)].sort();
  const marked: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const rows = await retryOnConflict(() => {
      const q = db
        .updateTable("device_status")
        .set({ online: 0, online_process: null, updated_at: nowIso() })
        .where("device_id", "in", part)
        .where("online", "=", 1);
      return (
        heldBy === null
          ? q.where("online_process", "is", null)
          : q.where("online_process", "in", typeof heldBy === "string" ? [heldBy] : heldBy)
      )
        .returning("device_id")
        .execute();
    });
    marked.push(...rows.map((r) => r.device_id));
  }
  return marked;
}
