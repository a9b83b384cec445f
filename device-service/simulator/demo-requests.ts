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

/** Free store apps (not system apps) this phone has never had: what a kid may ask to install, by package name. */
export async function installCandidates(db: DB, deviceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("catalog_apps")
    .select("package_name")
    .where("free", "=", 1)
    .where("is_system_app", "=", 0)
    .where("package_name", "not in", db.selectFrom("profile_apps").select("package_name").where("device_id", "=", deviceId))
    .orderBy("package_name")
    .limit(10)
    .execute();
  return rows.map((r) => r.package_name);
}
