// ---- places and the location trail (migration 2026-11-29T04-places); part of `Database` in schema.ts ----

/**
 * A place a parent named (Home, School…): a circle of `radius_m` metres around a centre. `profile_id` set: one kid's
 * place; null: the whole family's (the kids of `parent_id`, the family's owner).
 */
export interface PlacesTable {
  id: string;
  parent_id: string;
  profile_id: string | null;
  name: string;
  latitude: number;
  longitude: number;
  radius_m: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Whether one phone is inside or outside one place, and since when (the phone's time of the fix that decided it):
 * the state the geofence's hysteresis works from (core/geofence.ts). No row: not decided yet.
 */
export interface PlacePresenceTable {
  device_id: string;
  place_id: string;
  state: "inside" | "outside";
  since: string;
}

/**
 * One arrival or departure (the history; 30 days, jobs/housekeeping.ts). `id` is the alert's event id
 * (`place.arrive:<place>:<device>:<time>`): a transition is stored, and handed on, once.
 */
export interface PlaceEventsTable {
  id: string;
  place_id: string;
  device_id: string;
  profile_id: string;
  kind: "arrive" | "leave";
  place_name: string;
  at: string;
  created_at: string;
}

export interface PlacesDatabase {
  places: PlacesTable;
  place_presence: PlacePresenceTable;
  place_events: PlaceEventsTable;
}
