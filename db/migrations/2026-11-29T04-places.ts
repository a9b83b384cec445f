import type { Kysely } from "kysely";

// Frozen in time: no application imports. Places and the location trail (issue 55 items 1 and 2).
//
// - places: a named circle (centre, radius_m 50–5,000) for one kid (profile_id) or the whole family (profile_id
//   null; parent_id is the family's owner in both cases).
// - place_presence: per phone and place, inside or outside since a fix's time (the geofence's hysteresis state).
// - place_events: each arrival and departure once (id = the alert event id), kept 30 days; indexed by kid and time
//   only (every index costs each event's insert at ingest; a place's or phone's cascade scans 30 days of events).
// - device_locations.accuracy_m: the fix's accuracy in metres when the phone says it (a poor fix decides nothing);
//   device_locations_time_idx: the 30-day trail is pruned by the fix's time.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("places")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("profile_id", "text", (c) => c.references("kid_profiles.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("latitude", "double precision", (c) => c.notNull())
    .addColumn("longitude", "double precision", (c) => c.notNull())
    .addColumn("radius_m", "integer", (c) => c.notNull())
    .addColumn("created_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("places_parent_idx").on("places").column("parent_id").execute();
  await db.schema.createIndex("places_profile_idx").on("places").column("profile_id").execute();
  await db.schema
    .createTable("place_presence")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("place_id", "text", (c) => c.notNull().references("places.id").onDelete("cascade"))
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("since", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("place_presence_pk", ["device_id", "place_id"])
    .execute();
  await db.schema.createIndex("place_presence_place_idx").on("place_presence").column("place_id").execute();
  await db.schema
    .createTable("place_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("place_id", "text", (c) => c.notNull().references("places.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("place_name", "text", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("place_events_profile_idx").on("place_events").columns(["profile_id", "at"]).execute();
  await db.schema.alterTable("device_locations").addColumn("accuracy_m", "real").execute();
  await db.schema.createIndex("device_locations_time_idx").on("device_locations").column("device_time").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("device_locations_time_idx").execute();
  await db.schema.alterTable("device_locations").dropColumn("accuracy_m").execute();
  await db.schema.dropTable("place_events").ifExists().execute();
  await db.schema.dropTable("place_presence").ifExists().execute();
  await db.schema.dropTable("places").ifExists().execute();
}
