import type { DeviceServiceDeps } from "./context";
import { unenrollDevice } from "./unenroll";

/** A phone removed from a kid because the parent who enrolled it lost access to the kid. */
export interface RemovedPhone {
  deviceId: string;
  serialNumber: string;
  model: string | null;
  kidId: string;
  kidName: string;
}

/**
 * The phones `enrolledBy` enrolled (devices.enrolled_by) for kids among `profileIds` that this parent can no longer
 * reach (not their own kid, no accepted delegation to their address), each unenrolled as a replaced phone is
 * (device-service/unenroll.ts): credential revoked, open commands ended, socket closed on whichever process holds
 * it; no policy is sent to it again. Idempotent: a second call finds nothing. Phones with no enrolled_by (enrolled
 * before it was kept) count as the kid's own parent's and are never removed here.
 */
export async function removePhonesOfEndedAccess(
  deps: DeviceServiceDeps,
  enrolledBy: { id: string; email: string },
  profileIds: string[],
): Promise<RemovedPhone[]> {
  if (!profileIds.length) return [];
  const phones = await deps.db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select([
      "devices.id as deviceId",
      "devices.serial_number as serialNumber",
      "devices.model",
      "kid_profiles.id as kidId",
      "kid_profiles.name as kidName",
    ])
    .where("devices.enrolled_by", "=", enrolledBy.id)
    .where("devices.profile_id", "in", profileIds)
    .where("devices.unenrolled_at", "is", null)
    .where("kid_profiles.parent_id", "<>", enrolledBy.id)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("delegation_kids")
            .innerJoin("delegations", "delegations.id", "delegation_kids.delegation_id")
            .select("delegation_kids.profile_id")
            .whereRef("delegation_kids.profile_id", "=", "kid_profiles.id")
            .where("delegations.delegate_email", "=", enrolledBy.email.toLowerCase())
            .where("delegations.status", "=", "Accepted"),
        ),
      ),
    )
    .orderBy("kid_profiles.name")
    .orderBy("devices.serial_number")
    .execute();
  for (const p of phones) {
    await unenrollDevice(deps, p.deviceId);
    deps.log("info", "phone unenrolled", { deviceId: p.deviceId, profileId: p.kidId, enrolledBy: enrolledBy.id, reason: "access ended" });
  }
  return phones;
}
