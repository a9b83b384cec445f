import type { DeviceServiceDeps } from "../../device-service/context";
import { runInstallRetry } from "../../device-service/installs";
import type { Payload } from "../../core/job-queues";

/** Re-sends an install whose retry row is still pending and due (the row is the state). */
export async function installRetry(deps: DeviceServiceDeps, p: Payload<"install-retry">): Promise<void> {
  await runInstallRetry(deps, p.deviceId, p.packageName);
}
