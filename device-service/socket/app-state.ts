import { nowIso } from "../../core/ids.server";
import type { DeviceServiceDeps } from "../context";
import { notifyParents } from "../notify";
import { enqueueWebhookEvent } from "../webhooks";
import { LIMIT_REASONS, raiseLimitReached } from "../alerts";
import type { APP_BLOCK_REASONS } from "./messages";

/**
 * The phone says it stopped or restarted an app, and why: stored as the app's is_app_disabled and
 * appEnabledDisabledType. A parent's own disable ("Manually") is the parent's: a phone that has not yet received
 * that policy and reports the app usable does not undo it (the policy on its way will stop it again), and a phone's
 * "Manually" is never stored as one: it is the parent's disable the row already holds, or the app's category turned
 * off (policy/enforce.ts categoryOff), which is the category's; stored as the app's, it would keep the app off once
 * the category is on again (the policy carries the app's own disable).
 */
export async function recordAppState(
  deps: Pick<DeviceServiceDeps, "db" | "bus" | "log" | "jobs">,
  device: { id: string; profile_id: string },
  data: { packageName: string; disabled: boolean; reason: (typeof APP_BLOCK_REASONS)[number] | null },
  messageId?: string,
): Promise<void> {
  if (data.disabled && (data.reason ?? "Manually") === "Manually") return;
  // A time limit reached (the app's, its category's or the phone's): the parents' webhooks hear it once, when the app
  // was not already stopped for that reason.
  const limit = data.disabled && data.reason && LIMIT_REASONS.has(data.reason) ? data.reason : null;
  const before = limit
    ? await deps.db
        .selectFrom("profile_apps")
        .select(["is_app_disabled", "disabled_type"])
        .where("device_id", "=", device.id)
        .where("package_name", "=", data.packageName)
        .executeTakeFirst()
    : undefined;
  let q = deps.db
    .updateTable("profile_apps")
    .set({
      is_app_disabled: data.disabled ? 1 : 0,
      disabled_type: data.disabled ? data.reason : null,
      updated_at: nowIso(),
    })
    .where("device_id", "=", device.id)
    .where("package_name", "=", data.packageName);
  if (!data.disabled) q = q.where((eb) => eb.or([eb("disabled_type", "is", null), eb("disabled_type", "!=", "Manually")]));
  const res = await q.executeTakeFirst();
  if (Number(res.numUpdatedRows) > 0) {
    // A daily limit reached: limit.reached, once per app (or the phone's whole limit) per day (device-service/alerts.ts).
    if (limit) await raiseLimitReached(deps, device, data.packageName, limit);
    await notifyParents(deps, device.profile_id, "device.apps");
  }
  if (limit && before && !(before.is_app_disabled && before.disabled_type === limit))
    void enqueueWebhookEvent(deps, {
      type: "limit.reached",
      profileId: device.profile_id,
      eventId: `msg_limit_${messageId ?? `${device.id}_${data.packageName}_${Date.now()}`}`,
      data: { deviceId: device.id, packageName: data.packageName, reason: limit },
    });
}
