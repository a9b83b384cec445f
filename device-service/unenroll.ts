import { nowIso } from "../core/ids.server";
import { renewFilterId } from "../db/queries/web-filter/settings";
import { retryOnConflict } from "../db/retry";
import type { DeviceServiceDeps } from "./context";
import { OPEN_STATUSES } from "./commands/outbox";
import { applyKidPolicies } from "./policy/store";

/** Close code the device socket uses when its phone is removed from the account (the phone should stop). */
export const UNENROLLED_CLOSE = { code: 4003, reason: "Phone removed from the account" } as const;
export const UNENROLLED_COMMAND_ERROR = "The phone was removed from the account.";
export const UNENROLLED_DEVICE = "This phone was removed from the account.";

/**
 * Removes a phone from the account: its credential is revoked (the socket refuses it from now on), its open
 * commands end as failed, it is marked offline, and every process holding its socket closes it. The row and
 * its history (usage, locations, notifications) stay with the kid; re-enrolling the phone clears the mark.
 * In the same transaction the kid's web filter id is revoked and a new one made (decision 015): the phone, gone from
 * the family but maybe still set to the old Private DNS hostname, is refused by the filter from then on, and every
 * process serving the filter hears it (`web-filter.kid`). Answers whether the kid got a new filter id.
 */
export async function unenrollDevice(deps: DeviceServiceDeps, deviceId: string, now = new Date()): Promise<{ filterIdRenewed: boolean }> {
  const ts = nowIso(now);
  const profileId = await retryOnConflict(() =>
    deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("devices")
        .set({ credential_hash: null, fcm_token: null, unenrolled_at: ts, updated_at: ts })
        .where("id", "=", deviceId)
        .execute();
      await trx
        .updateTable("device_commands")
        .set({ status: "failed", error: UNENROLLED_COMMAND_ERROR, completed_at: ts })
        .where("device_id", "=", deviceId)
        .where("status", "in", OPEN_STATUSES)
        .execute();
      await trx.updateTable("device_status").set({ online: 0, updated_at: ts }).where("device_id", "=", deviceId).execute();
      const device = await trx.selectFrom("devices").select("profile_id").where("id", "=", deviceId).executeTakeFirst();
      return device && (await renewFilterId(trx, device.profile_id, now)) ? device.profile_id : null;
    }),
  );
  await deps.bus.publish({ type: "device.unenrolled", deviceId }).catch((err: unknown) => {
    // The credential is already revoked: a socket that stays open is closed at the next reconnect.
    deps.log("warn", "device.unenrolled not published", { deviceId, error: err instanceof Error ? err.message : String(err) });
  });
  // The kid's other phones get the new hostname in their policy (a kid without one: the filter still hears of the id).
  if (profileId) await applyKidPolicies(deps, profileId);
  return { filterIdRenewed: profileId !== null };
}
