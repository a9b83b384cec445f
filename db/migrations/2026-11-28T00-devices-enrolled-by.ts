import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// devices.enrolled_by: the parent whose enrollment code the phone's current credential came from (the code's
// `parent_id`). Revoking a delegate's access removes the phones that delegate enrolled (issue 52), so who enrolled
// each phone must be known. Set on every enrollment and re-enrollment.
//
// Phones enrolled before this migration: the code they used is still in enrollment_tokens when it was used within the
// last day (housekeeping deletes used codes after a day), and then its maker is copied here; for the others the
// column stays null, which the application reads as "enrolled by the kid's own parent" (such a phone is never removed
// by a revocation).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("devices").addColumn("enrolled_by", "text").execute();
  await sql`
    UPDATE devices SET enrolled_by = (
      SELECT t.parent_id FROM enrollment_tokens t
      WHERE t.device_id = devices.id AND t.used_at IS NOT NULL
      ORDER BY t.used_at DESC LIMIT 1
    )
    WHERE EXISTS (SELECT 1 FROM enrollment_tokens t WHERE t.device_id = devices.id AND t.used_at IS NOT NULL)
  `.execute(db);
  await db.schema.createIndex("devices_enrolled_by_idx").on("devices").column("enrolled_by").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("devices_enrolled_by_idx").ifExists().execute();
  await db.schema.alterTable("devices").dropColumn("enrolled_by").execute();
}
