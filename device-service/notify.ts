import type { DeviceServiceDeps } from "./context";
import { parentIdsForKid } from "./parents";

/**
 * Tells every open dashboard of the kid's parents (on any process) to refresh. Never throws. `parents`: the kid's
 * parents when the caller already started reading them (parentIdsForKid); `commandId`: the command the news is about.
 */
export async function notifyParents(
  deps: Pick<DeviceServiceDeps, "db" | "bus" | "log">,
  profileId: string,
  reason: string,
  o: { parents?: Promise<string[]>; commandId?: string } = {},
): Promise<void> {
  try {
    const parentIds = await (o.parents ?? parentIdsForKid(deps.db, profileId));
    if (parentIds.length)
      await deps.bus.publish({ type: "parent.refresh", parentIds, profileId, reason, ...(o.commandId ? { commandId: o.commandId } : {}) });
  } catch (err) {
    deps.log("warn", "parent refresh not published", { profileId, reason, error: err instanceof Error ? err.message : String(err) });
  }
}
