import type { DB } from "../../db/index";
import { REQUEST_KINDS, type RequestKind } from "./requests";

// ---- requests (issues 14 and 53): what the demo activity (simulator/demo-activity.ts) reads before a kid asks ----

const KIND_OF = new Map(Object.entries(REQUEST_KINDS).map(([kind, type]) => [type as string, kind as RequestKind]));

/** The kinds of request of this phone that wait for the parent's answer. */
export async function pendingRequestKinds(db: DB, deviceId: string): Promise<Set<RequestKind>> {
  const rows = await db
    .selectFrom("app_requests")
    .select("request_type")
    .distinct()
    .where("device_id", "=", deviceId)
    .where("status", "=", "Pending")
    .execute();
  return new Set(rows.map((r) => KIND_OF.get(r.request_type)).filter((k): k is RequestKind => k !== undefined));
}

/** Store genres a demo kid asks for ("Can I have this for school?"): learning, reading, making things, thinking games. */
const SCHOOL_GENRES = ["BOOKS_AND_REFERENCE", "ART_AND_DESIGN", "GAME_PUZZLE", "GAME_WORD", "GAME_BOARD"];

/**
 * What a demo kid may ask to install, by package name: free store apps (not system apps) for young children that the
 * store's experts recommend, for learning, reading or making things, which this phone has never had.
 */
export async function installCandidates(db: DB, deviceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("catalog_apps")
    .select("package_name")
    .where("free", "=", 1)
    .where("is_system_app", "=", 0)
    .where("min_age", "<=", 6)
    .where("expert_rating", "=", "EXPERT_RECOMMENDATION")
    .where((eb) => eb.or([eb("genre_id", "like", "%EDUCATION%"), eb("genre_id", "like", "FAMILY%"), eb("genre_id", "in", SCHOOL_GENRES)]))
    .where("package_name", "not in", db.selectFrom("profile_apps").select("package_name").where("device_id", "=", deviceId))
    .orderBy("package_name")
    .limit(10)
    .execute();
  return rows.map((r) => r.package_name);
}
