import { z } from "zod";
import { COMMAND_TYPES } from "../commands/types";
import { hardwareSchema } from "../enrollment";
import { privateDnsReport } from "../../core/private-dns";

/**
 * The device protocol. Every frame, both ways, is `{event, id, data}`. The phone's frames are validated
 * here; the server answers each with `{event: "ack", id}` once it is committed, or `{event: "error", id}`.
 * The server sends `{event: "command", id: <commandId>, data: {type, payload, issuedAt, expiresAt}}`.
 */
export const MAX_FRAME_BYTES = 256 * 1024;

export const INSTALL_FAILURE_REASONS = [
  "INSTALLATION_FAILURE_REASON_UNKNOWN",
  "IN_PROGRESS",
  "NOT_FOUND",
  "NOT_COMPATIBLE_WITH_DEVICE",
  "NOT_APPROVED",
  "PERMISSIONS_NOT_ACCEPTED",
  "NOT_AVAILABLE_IN_COUNTRY",
  "NO_LICENSES_REMAINING",
  "NOT_ENROLLED",
  "USER_INVALID",
  "NETWORK_ERROR_UNRELIABLE_CONNECTION",
  "INSUFFICIENT_STORAGE",
] as const;
export type InstallFailureReason = (typeof INSTALL_FAILURE_REASONS)[number];
/** Spec 2 §8: unknown failures are retried by the server on a timer (device-service/installs.ts retryRule). */
export const SERVER_RETRIED_REASONS: InstallFailureReason[] = ["INSTALLATION_FAILURE_REASON_UNKNOWN"];

/** Why an app is disabled (spec 2 §4). */
export const APP_BLOCK_REASONS = [
  "Manually",
  "Overuse",
  "Category Overuse",
  "Cronjob",
  "Global Daily Limit Reach",
  "Session Break",
] as const;

/** A kid's review from the kids app: characters at most (docs/security.md). */
export const KID_REVIEW_MAX = 1000;

const iso = z.string().datetime({ offset: true });
const pkg = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9._-]+$/, "packageName has unexpected characters");
const msgId = z.string().min(1).max(100);

export const childStatusData = z.object({
  batteryPercentage: z.number().int().min(0).max(100),
  wifiConnected: z.boolean(),
  kidsAppStatus: z.string().min(1).max(40), // "Healthy" or anything else
  missingPermissions: z.array(z.string().max(100)).max(50).default([]),
  appVersion: z.string().max(40),
  protectionState: z.boolean(),
  /** The policy version the phone currently enforces, if any. */
  policyVersion: z.number().int().min(0).optional(),
  fcmToken: z.string().max(4096).optional(),
  /** Free storage in MB: store installs that failed with INSUFFICIENT_STORAGE resume when it grows. */
  freeStorageMb: z.number().int().min(0).max(10_000_000).optional(),
  /**
   * The phone's Private DNS setting (issue 54 item 4): off, automatic, or a hostname (core/private-dns.ts). Optional:
   * a kids app that does not report it (and the fleet's minimal phones) send child_status as before.
   */
  privateDns: privateDnsReport.optional(),
  /** The kids app is the phone's device admin (false: removed, tamper.device-admin-removed). Absent: not reported. */
  deviceAdminActive: z.boolean().optional(),
  /** The phone's clock when it sent this status: more than 5 minutes from the server's raises tamper.clock-moved. */
  deviceTime: iso.optional(),
});

export const usageData = z.object({
  /** Absolute minutes per app per hour bucket: re-sending a bucket replaces it, never adds to it. */
  buckets: z
    .array(z.object({ packageName: pkg, hour: iso, minutes: z.number().int().min(0).max(60) }))
    .min(1)
    .max(2000),
});

export const deviceToServer = z.discriminatedUnion("event", [
  z.object({ event: z.literal("child_status"), id: msgId, data: childStatusData }),
  z.object({ event: z.literal("usage"), id: msgId, data: usageData }),
  z.object({
    event: z.literal("location"),
    id: msgId,
    data: z.object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      deviceTime: iso,
      /** The fix's accuracy in metres (Android's 68 % radius); a fix less accurate than a place's radius decides nothing there. */
      accuracy: z.number().min(0).max(100_000).optional(),
    }),
  }),
  z.object({
    event: z.literal("notification"),
    id: msgId,
    data: z.object({ type: z.string().min(1).max(60), message: z.string().min(1).max(1000), packageName: pkg.optional() }),
  }),
  z.object({
    event: z.literal("installed_apps"),
    id: msgId,
    data: z.object({
      apps: z.array(z.object({ packageName: pkg, category: z.string().max(100).optional(), systemApp: z.boolean().optional() })).max(2000),
    }),
  }),
  z.object({
    event: z.literal("install_result"),
    id: msgId,
    data: z.discriminatedUnion("status", [
      z.object({ status: z.literal("INSTALLED"), packageName: pkg }),
      z.object({ status: z.literal("UNINSTALLED"), packageName: pkg }),
      z.object({ status: z.literal("FAILED"), packageName: pkg, failureReason: z.enum(INSTALL_FAILURE_REASONS) }),
    ]),
  }),
  z.object({
    event: z.literal("app_request"),
    id: msgId,
    data: z.object({
      requestType: z.enum(["App Install", "App Uninstall", "Extend Time"]),
      packageName: pkg,
      extendedTime: z
        .number()
        .int()
        .min(0)
        .max(24 * 60)
        .default(0),
      remarks: z.string().max(500).optional(),
    }),
  }),
  z.object({
    event: z.literal("browser_visit"),
    id: msgId,
    data: z.object({ url: z.string().min(1).max(2048), visitedAt: iso, blocked: z.boolean().optional() }),
  }),
  z.object({
    event: z.literal("device_log"),
    id: msgId,
    data: z.object({
      title: z.string().max(200).optional(),
      deviceTime: iso.optional(),
      details: z.record(z.union([z.string().max(2000), z.number(), z.boolean(), z.null(), z.array(z.string().max(500)).max(500)])),
    }),
  }),
  z.object({
    event: z.literal("device_info"),
    id: msgId,
    data: hardwareSchema.extend({ batteryLevel: z.number().int().min(0).max(100).optional(), batteryCheckedAt: iso.optional() }),
  }),
  // The kid's stars for an app, from the kids app (spec 2 §3 Kids rating): one per kid and app, a new one replaces it.
  z.object({
    event: z.literal("kid_rating"),
    id: msgId,
    data: z.object({ packageName: pkg, rating: z.number().int().min(1).max(5), review: z.string().trim().max(KID_REVIEW_MAX).optional() }),
  }),
  // Why the phone stopped or restarted an app (spec 2 §4 appEnabledDisabledType); reason null when it is usable again.
  z.object({
    event: z.literal("app_state"),
    id: msgId,
    data: z.object({ packageName: pkg, disabled: z.boolean(), reason: z.enum(APP_BLOCK_REASONS).nullable() }),
  }),
  z.object({
    event: z.literal("command_ack"),
    id: msgId,
    data: z.object({
      commandId: z.string().min(1).max(100),
      status: z.enum(["acknowledged", "failed"]),
      result: z.unknown().optional(),
      error: z.string().max(500).optional(),
    }),
  }),
]);
export type DeviceMessage = z.infer<typeof deviceToServer>;
export type DeviceEvent = DeviceMessage["event"];

export interface ServerFrame {
  event: "ack" | "error" | "command" | "hello";
  id: string;
  data: unknown;
}

export const serverToDevice = z.object({
  event: z.enum(["ack", "error", "command", "hello"]),
  id: z.string(),
  data: z.unknown(),
});

export const commandFrameData = z.object({
  type: z.enum(COMMAND_TYPES),
  payload: z.record(z.unknown()),
  issuedAt: z.string(),
  expiresAt: z.string().nullable(),
});
