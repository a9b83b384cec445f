import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { cleanPhoneText } from "../core/phone-text";
import { serialNumber } from "../core/values";
import type { DB } from "../db/index";
import { dbDialect } from "../db/dialect";
import { newId, nowIso } from "../core/ids.server";
import type { Device } from "../db/schema";

export const ENROLLMENT_TTL_MS = 60 * 60_000;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** A one-time token for a kid's profile. Only its hash is stored; the token itself goes into the QR code. */
export async function createEnrollmentToken(db: DB, input: { profileId: string; parentId: string; ttlMs?: number }, now = new Date()) {
  const token = `enr_${randomBytes(24).toString("base64url")}`;
  const expiresAt = nowIso(new Date(now.getTime() + (input.ttlMs ?? ENROLLMENT_TTL_MS)));
  await db
    .insertInto("enrollment_tokens")
    .values({
      token_hash: sha256(token),
      profile_id: input.profileId,
      parent_id: input.parentId,
      created_at: nowIso(now),
      expires_at: expiresAt,
      used_at: null,
      device_id: null,
    })
    .execute();
  return { token, expiresAt };
}

/** Everything the phone tells us about itself at enrollment (the /device-info fields of spec 1). */
export const hardwareSchema = z.object({
  serialNumber,
  brand: z.string().max(100).optional(),
  model: z.string().max(100).optional(),
  hardware: z.string().max(100).optional(),
  basebandVersion: z.string().max(200).optional(),
  manufacturer: z.string().max(100).optional(),
  androidVersion: z.string().max(40).optional(),
  languageCode: z.string().max(20).optional(),
  imei: z.string().max(40).optional(),
  wifiMac: z.string().max(40).optional(),
  networkOperator: z.string().max(100).optional(),
  phoneNumber: z.string().max(40).optional(),
  totalRam: z.string().max(40).optional(),
  totalStorage: z.string().max(40).optional(),
  appVersion: z.string().max(40).optional(),
  fcmToken: z.string().max(4096).optional(),
});
export type Hardware = z.infer<typeof hardwareSchema>;

export function hardwareColumns(h: Partial<Hardware>) {
  const cols = {
    brand: h.brand,
    model: h.model,
    hardware: h.hardware,
    baseband_version: h.basebandVersion,
    manufacturer: h.manufacturer,
    android_version: h.androidVersion,
    language_code: h.languageCode,
    imei: h.imei,
    wifi_mac: h.wifiMac,
    network_operator: h.networkOperator,
    phone_number: h.phoneNumber,
    total_ram: h.totalRam,
    total_storage: h.totalStorage,
    app_version: h.appVersion,
    fcm_token: h.fcmToken,
  };
  // Shown on the device pages: no bidi controls or control characters (core/phone-text.ts).
  return Object.fromEntries(Object.entries(cols).flatMap(([k, v]) => (v === undefined ? [] : [[k, cleanPhoneText(v)]]))) as Partial<
    Record<keyof typeof cols, string>
  >;
}

export class EnrollmentError extends Error {
  constructor(
    public status: number,
    message: string,
    /** Why, for the operators' log only: the phone gets `message`, which may deliberately say less. */
    public reason?: string,
  ) {
    super(message);
  }
}

const INVALID_CODE = "The enrollment code is not valid.";
export const CODE_NO_LONGER_VALID = "This enrollment code is no longer valid. Please show a new QR code.";

/**
 * Whether the parent who made a code may still enroll a phone for its kid, judged now (issue 52): the kid's own
 * parent always; a delegate only while the delegation in force when the code was made is still accepted (one
 * accepted later, after a revocation and a new invitation, does not revive an older code). Read in the enrollment's
 * transaction; on PostgreSQL the delegation's row is locked for share, so a revocation racing this enrollment waits
 * for it to commit and then finds the new phone among the delegate's (device-service/delegate-phones.ts).
 */
async function makerMayEnroll(trx: DB, code: { parent_id: string; profile_id: string; created_at: string }): Promise<boolean> {
  const own = await trx
    .selectFrom("kid_profiles")
    .select("id")
    .where("id", "=", code.profile_id)
    .where("parent_id", "=", code.parent_id)
    .executeTakeFirst();
  if (own) return true;
  let delegated = trx
    .selectFrom("delegations")
    .innerJoin("delegation_kids", "delegation_kids.delegation_id", "delegations.id")
    .innerJoin("parents", "parents.email", "delegations.delegate_email")
    .select("delegations.id")
    .where("parents.id", "=", code.parent_id)
    .where("delegation_kids.profile_id", "=", code.profile_id)
    .where("delegations.status", "=", "Accepted")
    .where((eb) => eb.or([eb("delegations.responded_at", "is", null), eb("delegations.responded_at", "<=", code.created_at)]));
  if (dbDialect(trx) === "postgres") delegated = delegated.forShare("delegations");
  return Boolean(await delegated.executeTakeFirst());
}

/**
 * Exchanges a one-time token (and the phone's hardware info) for a device credential. The credential is
 * `<deviceId>.<secret>`; only its SHA-256 is stored, in devices.credential_hash. Re-enrolling the same
 * phone for the same family rotates the credential. A phone enrolled to another family is refused with the
 * answer a made-up code gets, and the code is spent as after any use: the answer never tells whether a
 * serial number belongs to another family, and each guess costs the guesser a fresh code.
 */
export async function exchangeEnrollmentToken(db: DB, token: string, hw: Hardware, now = new Date()) {
  if (!token || token.length > 200) throw new EnrollmentError(400, INVALID_CODE);
  const r = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("enrollment_tokens").selectAll().where("token_hash", "=", sha256(token)).executeTakeFirst();
    if (!row) throw new EnrollmentError(401, INVALID_CODE);
    if (row.used_at) throw new EnrollmentError(401, "This enrollment code has already been used. Please show a new QR code.");
    if (row.expires_at <= nowIso(now)) throw new EnrollmentError(401, "This enrollment code has expired. Please show a new QR code.");
    if (!(await makerMayEnroll(trx, row)))
      throw new EnrollmentError(401, CODE_NO_LONGER_VALID, "the code's maker no longer has access to the kid");
    const claimed = await trx
      .updateTable("enrollment_tokens")
      .set({ used_at: nowIso(now) })
      .where("token_hash", "=", row.token_hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1)
      throw new EnrollmentError(401, "This enrollment code has already been used. Please show a new QR code.");

    const existing = await trx
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.id", "devices.profile_id", "kid_profiles.parent_id"])
      .where("devices.serial_number", "=", hw.serialNumber)
      .executeTakeFirst();
    const secret = randomBytes(32).toString("base64url");
    const ts = nowIso(now);
    let deviceId: string;
    if (existing) {
      // Committed with the code claimed (not thrown, which would roll the claim back).
      if (existing.parent_id !== row.parent_id) return null;
      deviceId = existing.id;
      const credential = `${deviceId}.${secret}`;
      await trx
        .updateTable("devices")
        .set({
          ...hardwareColumns(hw),
          profile_id: row.profile_id,
          credential_hash: sha256(credential),
          last_activation_at: ts,
          unenrolled_at: null,
          enrolled_by: row.parent_id,
          updated_at: ts,
        })
        .where("id", "=", deviceId)
        .execute();
    } else {
      deviceId = newId();
      const credential = `${deviceId}.${secret}`;
      await trx
        .insertInto("devices")
        .values({
          id: deviceId,
          profile_id: row.profile_id,
          serial_number: hw.serialNumber,
          app_version: null,
          brand: null,
          model: null,
          hardware: null,
          baseband_version: null,
          manufacturer: null,
          android_version: null,
          language_code: null,
          imei: null,
          wifi_mac: null,
          network_operator: null,
          phone_number: null,
          total_ram: null,
          total_storage: null,
          fcm_token: null,
          ...hardwareColumns(hw),
          protection_enabled: 1,
          last_activation_at: ts,
          credential_hash: sha256(credential),
          enrolled_by: row.parent_id,
          created_at: ts,
          updated_at: ts,
        })
        .execute();
      await trx
        .insertInto("device_status")
        .values({
          device_id: deviceId,
          battery_percentage: null,
          battery_checked_at: null,
          additional_data: null,
          app_version: hw.appVersion ?? null,
          updated_at: ts,
        })
        .execute();
      await trx
        .insertInto("location_settings")
        .values({ device_id: deviceId, enable_location_tracking: 1, location_tracking_interval: 15, updated_at: ts })
        .execute();
    }
    await trx.updateTable("enrollment_tokens").set({ device_id: deviceId }).where("token_hash", "=", row.token_hash).execute();
    return { deviceId, profileId: row.profile_id, serialNumber: hw.serialNumber, credential: `${deviceId}.${secret}` };
  });
  if (!r) throw new EnrollmentError(401, INVALID_CODE, "serial enrolled to another family");
  return r;
}

/**
 * Resolves a device credential to its device, comparing hashes in constant time. `byId` reads the device row
 * (the gateway passes a coalesced reader: socket/coalesce.ts); by default one query.
 */
/** The device id a credential names (`<deviceId>.<secret>`), or undefined for one of no such shape. */
export function credentialDeviceId(credential: string | null | undefined): string | undefined {
  if (!credential || credential.length > 200) return undefined;
  const dot = credential.indexOf(".");
  return dot > 0 ? credential.slice(0, dot) : undefined;
}

export async function authenticateDevice<D extends Device = Device>(
  db: DB,
  credential: string | null | undefined,
  byId?: (id: string) => Promise<D | undefined>,
): Promise<D | undefined> {
  const id = credentialDeviceId(credential);
  if (!id || !credential) return undefined;
  const device = byId
    ? await byId(id)
    : ((await db.selectFrom("devices").selectAll().where("id", "=", id).executeTakeFirst()) as D | undefined);
  if (!device?.credential_hash) return undefined;
  const a = Buffer.from(device.credential_hash, "hex");
  const b = Buffer.from(sha256(credential), "hex");
  return a.length === b.length && timingSafeEqual(a, b) ? device : undefined;
}
