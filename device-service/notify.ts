import type { DeviceServiceDeps } from "./context";
import { parentIdsForKid } from "./parents";

/**
 * Tells every open dashboard of the kid's parents (on any process) to refresh. Never throws. `parents`: the kid's
 * parents when the caller already started reading them (parentIdsForKid).
 */
export async function notifyParents(deps: Pick<DeviceServiceDeps, "db" | "bus" | "log">, profileId: string, reason: string, parents?: Promise<string[]>): Promise<void> {
  try {
    const parentIds = await (parents ?? parentIdsForKid(deps.db, profileId));
    if (parentIds.length) await deps.bus.publish({ type: "parent.refresh", parentIds, profileId, reason });
  } catch (err) {
    deps.log("warn", "parent refresh not published", { profileId, reason, error: err instanceof Error ? err.message : String(err) });
  }
}
