import { expireCommand } from "../../device-service/commands/outbox";
import type { DeviceServiceDeps } from "../../device-service/context";
import { notifyParents } from "../../device-service/notify";
import type { Payload } from "../queues";

/** Closes the command if it is still open past its expiry; a no-op otherwise (idempotent). */
export async function commandExpiry(deps: DeviceServiceDeps, p: Payload<"command-expiry">): Promise<void> {
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
