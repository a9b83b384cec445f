import { expireCommand, expireOverdueKids } from "../../device-service/commands/outbox";
import type { DeviceServiceDeps } from "../../device-service/context";
import { notifyParents } from "../../device-service/notify";
import type { Payload } from "../../core/job-queues";

/**
 * The sweep of one second's expiries (`until`): closes every open command then overdue and tells each kid's parents.
 * A job queued before sweeps (`commandId`) closes its one command. Idempotent: a closed command stays as it is.
 */
export async function commandExpiry(deps: DeviceServiceDeps, p: Payload<"command-expiry">): Promise<void> {
  if ("until" in p) {
    const { profileIds } = await expireOverdueKids(deps.db);
    for (const profileId of profileIds) await notifyParents(deps, profileId, "command.expired");
    return;
  }
  const changed = await expireCommand(deps, p.commandId);
  if (!changed) return;
  const row = await deps.db
    .selectFrom("device_commands")
    .innerJoin("devices", "devices.id", "device_commands.device_id")
    .select("devices.profile_id")
    .where("device_commands.id", "=", p.commandId)
    .executeTakeFirst();
  if (row) await notifyParents(deps, row.profile_id, "command.expired");
}
