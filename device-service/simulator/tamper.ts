/**
 * The tampering a simulated phone can report (`npm run device:sim -- status --tamper <kind>`), so every tampering
 * alert can be seen locally: each kind is the status fields a real phone sends when it happens.
 */
import type { z } from "zod";
import type { childStatusData } from "../socket/messages";

type ChildStatus = z.input<typeof childStatusData>;

export const TAMPER_KINDS = ["protection-off", "permissions-off", "device-admin-removed", "clock-moved"] as const;
export type TamperKind = (typeof TAMPER_KINDS)[number];

export function isTamperKind(v: unknown): v is TamperKind {
  return typeof v === "string" && (TAMPER_KINDS as readonly string[]).includes(v);
}

/** The status fields of one kind of tampering (`now`: the real time; the moved clock runs 10 minutes ahead of it). */
export function tamperStatus(kind: TamperKind, now: Date = new Date()): Partial<ChildStatus> {
  switch (kind) {
    case "protection-off":
      return { protectionState: false };
    case "permissions-off":
      return { kidsAppStatus: "Permissions missing", missingPermissions: ["Usage access", "Accessibility"] };
    case "device-admin-removed":
      return { deviceAdminActive: false };
    case "clock-moved":
      return { deviceTime: new Date(now.getTime() + 10 * 60_000).toISOString() };
  }
}
