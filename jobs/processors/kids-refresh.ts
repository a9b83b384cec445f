import type { DeviceServiceDeps } from "../../device-service/context";
import { notifyParents } from "../../device-service/notify";
import type { Payload } from "../../core/job-queues";

/** The delayed kids-list reload: tells the kid's parents' open dashboards to refresh. Idempotent. */
export async function kidsRefresh(deps: DeviceServiceDeps, p: Payload<"kids-refresh">): Promise<void> {
  await notifyParents(deps, p.profileId, `reload.${p.reason}`);
}
