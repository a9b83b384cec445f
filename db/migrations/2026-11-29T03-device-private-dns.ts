import type { Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Issue 54 item 4: what each phone reports its Private DNS is set to (child_status `privateDns`): the mode ('off',
// 'opportunistic' or 'hostname'), the hostname in mode 'hostname', and when the phone last reported a different
// setting. Null until a phone reports it (an older kids app never does).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("device_status").addColumn("private_dns_mode", "text").execute();
  await db.schema.alterTable("device_status").addColumn("private_dns_hostname", "text").execute();
  await db.schema.alterTable("device_status").addColumn("private_dns_changed_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("device_status").dropColumn("private_dns_changed_at").execute();
  await db.schema.alterTable("device_status").dropColumn("private_dns_hostname").execute();
  await db.schema.alterTable("device_status").dropColumn("private_dns_mode").execute();
}
