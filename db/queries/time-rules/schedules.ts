import { newId } from "../../../core/ids.server";
import type { DB } from "../../index";

/** A kid's schedule (time window) as the pages and the policy read it. */
export interface ScheduleRow {
  id: string;
  profileId: string;
  name: string;
  /** 0 = Monday … 6 = Sunday: the days the window starts on. */
  days: number[];
  /** Minutes since midnight. */
  start: number;
  end: number;
  blocksAll: boolean;
  categories: string[];
  apps: string[];
}

export type ScheduleFields = Omit<ScheduleRow, "id" | "profileId">;

function list(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function toRow(r: {
  id: string;
  profile_id: string;
  name: string;
  days: string;
  start_minute: number;
  end_minute: number;
  blocks_all: number;
  categories: string;
  apps: string;
}): ScheduleRow {
  let days: number[] = [];
  try {
    const v = JSON.parse(r.days) as unknown;
    if (Array.isArray(v)) days = v.filter((d): d is number => Number.isInteger(d) && d >= 0 && d <= 6);
  } catch {
    days = [];
  }
  return {
    id: r.id,
    profileId: r.profile_id,
    name: r.name,
    days,
    start: Number(r.start_minute),
    end: Number(r.end_minute),
    blocksAll: Number(r.blocks_all) === 1,
    categories: list(r.categories),
    apps: list(r.apps),
  };
}

export async function listSchedules(db: DB, profileId: string): Promise<ScheduleRow[]> {
  const rows = await db
    .selectFrom("kid_schedules")
    .selectAll()
    .where("profile_id", "=", profileId)
    .orderBy("start_minute")
    .orderBy("name")
    .orderBy("id")
    .execute();
  return rows.map(toRow);
}

/** One of this kid's schedules; undefined for another kid's id (the page answers 404). */
export async function findSchedule(db: DB, profileId: string, id: string): Promise<ScheduleRow | undefined> {
  const r = await db.selectFrom("kid_schedules").selectAll().where("profile_id", "=", profileId).where("id", "=", id).executeTakeFirst();
  return r ? toRow(r) : undefined;
}

const columns = (f: ScheduleFields) => ({
  name: f.name,
  days: JSON.stringify([...new Set(f.days)].sort()),
  start_minute: f.start,
  end_minute: f.end,
  blocks_all: f.blocksAll ? 1 : 0,
  categories: JSON.stringify(f.blocksAll ? [] : f.categories),
  apps: JSON.stringify(f.blocksAll ? [] : f.apps),
});

export async function createSchedule(db: DB, profileId: string, f: ScheduleFields, now: Date = new Date()): Promise<string> {
  const id = newId();
  await db
    .insertInto("kid_schedules")
    .values({ id, profile_id: profileId, ...columns(f), created_at: now.toISOString(), updated_at: now.toISOString() })
    .execute();
  return id;
}

/** False when the id is not this kid's. */
export async function updateSchedule(db: DB, profileId: string, id: string, f: ScheduleFields, now: Date = new Date()): Promise<boolean> {
  const r = await db
    .updateTable("kid_schedules")
    .set({ ...columns(f), updated_at: now.toISOString() })
    .where("profile_id", "=", profileId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteSchedule(db: DB, profileId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom("kid_schedules").where("profile_id", "=", profileId).where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
