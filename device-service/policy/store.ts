import { nowIso } from "../../core/ids.server";
import { filterHostname } from "../../core/private-dns";
import type { DB } from "../../db/index";
import type { DeviceServiceDeps } from "../context";
import { issueCommand, OPEN_STATUSES, dispatch } from "../commands/outbox";
import { loadTimeRules } from "../../db/queries/time-rules/rules";
import { buildPolicy, samePolicy, type PolicyDocument, type PolicyInput } from "./build";

/**
 * Reads everything the policy depends on for one device. `privateDnsDomain` (DeviceServiceDeps, set when the web filter
 * is on): the policy names the kid's Private DNS hostname when the kid has a live (not revoked) filter id.
 */
export async function loadPolicyInput(db: DB, deviceId: string, now: Date = new Date(), privateDnsDomain?: string): Promise<PolicyInput> {
  const device = await db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select([
      "devices.id",
      "devices.profile_id",
      "devices.protection_enabled",
      "devices.allow_full_device_access",
      "kid_profiles.sleep_mode",
    ])
    .where("devices.id", "=", deviceId)
    .executeTakeFirstOrThrow();
  const [apps, categories, global, location, blocked, timeRules, filter] = await Promise.all([
    db.selectFrom("profile_apps").selectAll().where("device_id", "=", deviceId).execute(),
    db.selectFrom("category_limits").selectAll().where("profile_id", "=", device.profile_id).execute(),
    db
      .selectFrom("global_settings")
      .select("value")
      .where("device_id", "=", deviceId)
      .where("key", "=", "GlobalDailyLimit")
      .executeTakeFirst(),
    db.selectFrom("location_settings").selectAll().where("device_id", "=", deviceId).executeTakeFirst(),
    db.selectFrom("browser_logs").select("url").distinct().where("device_id", "=", deviceId).where("is_blocked", "=", 1).execute(),
    loadTimeRules(db, device.profile_id, now),
    privateDnsDomain
      ? db
          .selectFrom("web_filter_settings")
          .select(["filter_id", "revoked_at"])
          .where("profile_id", "=", device.profile_id)
          .executeTakeFirst()
      : undefined,
  ]);
  return {
    sleepMode: device.sleep_mode === 1,
    protectionEnabled: device.protection_enabled === 1,
    allowFullDeviceAccess: device.allow_full_device_access === 1,
    apps: apps.map((a) => ({
      packageName: a.package_name,
      category: a.play_store_category,
      disabled: a.is_app_disabled === 1,
      disabledType: a.disabled_type,
      enableDailyLimit: a.enable_daily_limit === 1,
      dailyLimitMinutes: a.daily_limit_minutes,
      installed: a.is_installed === 1,
    })),
    categories: categories.map((c) => ({
      category: c.category,
      enabled: c.is_category_enabled === 1,
      enableDailyLimit: c.enable_daily_limit === 1,
      dailyLimitMinutes: c.daily_limit_minutes,
    })),
    globalDailyLimitMinutes: Number(global?.value ?? 0) || 0,
    blockedUrls: blocked.map((b) => b.url),
    locationTracking: {
      enabled: (location?.enable_location_tracking ?? 0) === 1,
      intervalMinutes: location?.location_tracking_interval ?? 0,
    },
    timeRules,
    privateDnsHostname: privateDnsDomain && filter && !filter.revoked_at ? filterHostname(filter.filter_id, privateDnsDomain) : null,
  };
}

export async function latestPolicy(db: DB, deviceId: string) {
  const row = await db
    .selectFrom("device_policies")
    .selectAll()
    .where("device_id", "=", deviceId)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, doc: JSON.parse(row.document) as PolicyDocument } : undefined;
}

export interface AppliedPolicy {
  version: number;
  commandId: string;
  changed: boolean;
}

/** Applies the policy to every enrolled phone of a kid (rules that are the kid's, not one phone's). */
export async function applyKidPolicies(
  deps: DeviceServiceDeps,
  profileId: string,
  issuedBy: string | null = null,
  now: Date = new Date(),
): Promise<Map<string, AppliedPolicy>> {
  const devices = await deps.db
    .selectFrom("devices")
    .select("id")
    .where("profile_id", "=", profileId)
    .where("unenrolled_at", "is", null)
    .execute();
  const out = new Map<string, AppliedPolicy>();
  for (const d of devices) out.set(d.id, await applyPolicy(deps, d.id, issuedBy, now));
  // No phone to apply to: the web filter still reads the kid's rules (a phone may use its hostname unenrolled).
  if (!devices.length) await announceToWebFilter(deps, { profileId });
  return out;
}

/**
 * "Apply policy": builds the document from the current settings; when it differs from the latest version
 * it stores version N+1, supersedes older unacknowledged policy commands and sends APPLY_POLICY.
 * When nothing changed, the pending command (if any) is re-dispatched and the same version returned.
 */
export async function applyPolicy(
  deps: DeviceServiceDeps,
  deviceId: string,
  issuedBy: string | null = null,
  at: Date = new Date(),
): Promise<AppliedPolicy> {
  const doc = buildPolicy(await loadPolicyInput(deps.db, deviceId, at, deps.privateDnsDomain));
  const latest = await latestPolicy(deps.db, deviceId);
  if (latest && latest.command_id && samePolicy(latest.doc, doc)) {
    if (!latest.acknowledged_at) await dispatch(deps, deviceId);
    return { version: latest.version, commandId: latest.command_id, changed: false };
  }
  const version = (latest?.version ?? 0) + 1;
  const now = nowIso();
  try {
    await deps.db
      .insertInto("device_policies")
      .values({ device_id: deviceId, version, document: JSON.stringify(doc), command_id: null, created_at: now, acknowledged_at: null })
      .execute();
  } catch {
    // Another process stored this version concurrently: build on top of it.
    return applyPolicy(deps, deviceId, issuedBy, at);
  }
  await deps.db
    .updateTable("device_commands")
    .set({ status: "expired", completed_at: now, error: `superseded by policy version ${version}` })
    .where("device_id", "=", deviceId)
    .where("type", "=", "APPLY_POLICY")
    .where("status", "in", OPEN_STATUSES)
    .execute();
  const cmd = await issueCommand(deps, {
    deviceId,
    type: "APPLY_POLICY",
    payload: { version, policy: doc },
    issuedBy,
    ttlMs: null,
    policyVersion: version,
  });
  await deps.db
    .updateTable("device_policies")
    .set({ command_id: cmd.id })
    .where("device_id", "=", deviceId)
    .where("version", "=", version)
    .execute();
  await announceToWebFilter(deps, { deviceId });
  return { version, commandId: cmd.id, changed: true };
}

/**
 * The phone's policy changed (its /browser-logs blocks, its kid's schedules…): the web filter's processes reload the
 * kid's filter, which reads the same rules (server/web-filter.ts). A lost message leaves the filter behind until the
 * next change or restart, never the phone: logged, not thrown.
 */
export async function announceToWebFilter(deps: DeviceServiceDeps, of: { deviceId: string } | { profileId: string }): Promise<void> {
  try {
    const profileId =
      "profileId" in of
        ? of.profileId
        : (await deps.db.selectFrom("devices").select("profile_id").where("id", "=", of.deviceId).executeTakeFirst())?.profile_id;
    if (profileId) await deps.bus.publish({ type: "web-filter.kid", profileId });
  } catch (err) {
    deps.log("warn", "web-filter.kid not published", { ...of, error: err instanceof Error ? err.message : String(err) });
  }
}
