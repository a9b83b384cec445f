import type { Kysely } from "kysely";

// Frozen in time: no application imports.
//
// device_status.online_process: which device-service process holds the phone's socket while it is online
// (issue 22). Each process keeps a heartbeat key in Redis; a sweep marks the phones of a process whose key
// expired (kill -9, a lost machine) offline, and a process only ever marks offline the phones it holds, so a
// late close on an old process cannot hide a phone that already reconnected elsewhere.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("device_status").addColumn("online_process", "text").execute();
  await db.schema.createIndex("device_status_online_process").on("device_status").column("online_process").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("device_status_online_process").execute();
  await db.schema.alterTable("device_status").dropColumn("online_process").execute();
}
