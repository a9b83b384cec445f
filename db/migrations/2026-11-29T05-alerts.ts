import type { Kysely } from "kysely";

// Frozen in time: no application imports. Alerts (issue 55 items 3 and 4).
//
// - alerts: one row per event per recipient parent (unique event_id × parent_id: recording an event twice stores it
//   once). kind, kid, phone, when it happened, the text (title, body) and the portal path it opens; `in_centre` 0 when
//   the parent switched the alert centre off for the kind (kept for the other channels); read_at when read.
// - alert_deliveries: one row per alert and channel (primary key: each channel delivers at most once). state
//   'pending' | 'sending' (claimed) | 'sent' | 'failed' | 'skipped'; attempts; next_at, the earliest next try (quiet
//   hours, back-off); sent_at; error (the last failure, no secrets).
// - alert_preferences: the switches a parent changed (parent × kind × channel → on 0/1); a missing row is the default.
// - alert_quiet_hours: per parent, local start and end ("HH:MM", the family's time zone); e-mail and push wait until
//   the end, the centre still shows.
// - alert_conditions: a state a phone is in that raised an alert once (battery low, offline, protection off…): the
//   row is there while it lasts, so the alert is raised once per spell.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("alerts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("device_id", "text")
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("in_centre", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("read_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("alerts_event_parent_uq", ["event_id", "parent_id"])
    .execute();
  await db.schema.createIndex("alerts_parent_at_idx").on("alerts").columns(["parent_id", "at"]).execute();
  await db.schema
    .createTable("alert_deliveries")
    .addColumn("alert_id", "text", (c) => c.notNull().references("alerts.id").onDelete("cascade"))
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_at", "text", (c) => c.notNull())
    .addColumn("claimed_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("error", "text")
    .addPrimaryKeyConstraint("alert_deliveries_pk", ["alert_id", "channel"])
    .execute();
  await db.schema.createIndex("alert_deliveries_state_idx").on("alert_deliveries").columns(["state", "next_at"]).execute();
  await db.schema
    .createTable("alert_preferences")
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_preferences_pk", ["parent_id", "kind", "channel"])
    .execute();
  await db.schema
    .createTable("alert_quiet_hours")
    .addColumn("parent_id", "text", (c) => c.primaryKey().references("parents.id").onDelete("cascade"))
    .addColumn("start_time", "text", (c) => c.notNull())
    .addColumn("end_time", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("alert_conditions")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("condition", "text", (c) => c.notNull())
    .addColumn("since", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_conditions_pk", ["device_id", "condition"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("alert_conditions").ifExists().execute();
  await db.schema.dropTable("alert_quiet_hours").ifExists().execute();
  await db.schema.dropTable("alert_preferences").ifExists().execute();
  await db.schema.dropTable("alert_deliveries").ifExists().execute();
  await db.schema.dropIndex("alerts_parent_at_idx").ifExists().execute();
  await db.schema.dropTable("alerts").ifExists().execute();
}
