import type { DB } from "../db/index";
import type { PolicyDocument } from "./policy/build";
import { policyAspects } from "./policy/build";

export interface AckState {
  sleepModeAcknowledged: boolean;
  protectionAcknowledged: boolean;
  limitsAcknowledged: boolean;
  /** The newest policy version sent (acknowledged or not). */
  pendingPolicyVersion: number | null;
  /** The newest policy version the phone acknowledged. */
  appliedPolicyVersion: number | null;
}

export interface PolicyRow {
  version: number;
  document: string;
  acknowledged_at: string | null;
}

/**
 * The newest policy sent and the newest one acknowledged (the same row when it is both), in one round trip. The
 * dashboard reads it once for its acknowledgement state and its explanations (explainDevice takes `latest`).
 */
export async function latestAndApplied(
  db: DB,
  deviceId: string,
): Promise<{ latest: PolicyRow | undefined; applied: PolicyRow | undefined }> {
  const rows = await db
    .selectFrom("device_policies")
    .select(["version", "document", "acknowledged_at"])
    .where("device_id", "=", deviceId)
    .where((eb) =>
      eb.or([
        eb(
          "version",
          "=",
          eb
            .selectFrom("device_policies")
            .select((e) => e.fn.max("version").as("v"))
            .where("device_id", "=", deviceId),
        ),
        eb(
          "version",
          "=",
          eb
            .selectFrom("device_policies")
            .select((e) => e.fn.max("version").as("v"))
            .where("device_id", "=", deviceId)
            .where("acknowledged_at", "is not", null),
        ),
      ]),
    )
    .orderBy("version", "desc")
    .execute();
  return { latest: rows[0], applied: rows.find((r) => r.acknowledged_at != null) };
}

/**
 * What the dashboard shows green vs pending (`isDeviceAcknowledge`), derived only from policy
 * acknowledgements: an aspect is acknowledged when the newest policy the phone applied has the same
 * sleep mode / protection / limits as the newest policy sent. No policy sent yet: nothing is pending.
 */
export async function getAckState(
  db: DB,
  deviceId: string,
  read: ReturnType<typeof latestAndApplied> = latestAndApplied(db, deviceId),
): Promise<AckState> {
  const { latest, applied } = await read;
  if (!latest)
    return {
      sleepModeAcknowledged: true,
      protectionAcknowledged: true,
      limitsAcknowledged: true,
      pendingPolicyVersion: null,
      appliedPolicyVersion: null,
    };
  if (!applied)
    return {
      sleepModeAcknowledged: false,
      protectionAcknowledged: false,
      limitsAcknowledged: false,
      pendingPolicyVersion: latest.version,
      appliedPolicyVersion: null,
    };
  const want = policyAspects(JSON.parse(latest.document) as PolicyDocument);
  const have = policyAspects(JSON.parse(applied.document) as PolicyDocument);
  return {
    sleepModeAcknowledged: want.sleepMode === have.sleepMode,
    protectionAcknowledged: want.protection === have.protection,
    limitsAcknowledged: want.limits === have.limits,
    pendingPolicyVersion: latest.version,
    appliedPolicyVersion: applied.version,
  };
}

export type ItemAck = "sent" | "acknowledged";

/**
 * One app's or one category's delivery state (spec 2 §4: orange sent, green acknowledged): acknowledged when the
 * newest policy the phone applied has the same entry for it as the newest policy sent. Nothing sent yet: acknowledged.
 */
export async function getItemAck(db: DB, deviceId: string, item: { app: string } | { category: string }): Promise<ItemAck> {
  const { latest, applied } = await latestAndApplied(db, deviceId);
  if (!latest) return "acknowledged";
  if (!applied) return "sent";
  const entry = (document: string) => {
    const doc = JSON.parse(document) as PolicyDocument;
    const found =
      "app" in item ? doc.apps.find((a) => a.packageName === item.app) : doc.limits.categories.find((c) => c.category === item.category);
    return JSON.stringify(found ?? null);
  };
  return entry(latest.document) === entry(applied.document) ? "acknowledged" : "sent";
}
