/**
 * The kid's requests as the parent sees them (spec 2 §2 /requests, §4, §9). Pure; the page and its tests share them.
 */
import { extendBonusMinutes } from "#core/limits";
import type { AppRequestType } from "#db/schema-device-service";

/** Spec 2 §2: the exact labels. */
export function requestTypeLabel(type: AppRequestType, minutes: number): string {
  switch (type) {
    case "App Install":
      return "App Installation Request";
    case "App Uninstall":
      return "App Uninstallation Request";
    case "Extend Time":
      return `App Time Extend Request - ${minutes} Minutes`;
  }
}

/** The answer button of each request: Install and Extend open their popup, UnInstall approves at once. */
export function requestButton(type: AppRequestType): { label: "Install" | "UnInstall" | "Extend"; modal: "install" | "extend" | null } {
  switch (type) {
    case "App Install":
      return { label: "Install", modal: "install" };
    case "App Uninstall":
      return { label: "UnInstall", modal: null };
    case "Extend Time":
      return { label: "Extend", modal: "extend" };
  }
}

/**
 * The extend popup: today's limit so far (standing + bonus already given today), the extra minutes the approval
 * gives (the ask in 15-minute bonus steps, core/limits.ts extendBonusMinutes), the new total.
 */
export function extendTotals(x: { standing: number | null; extraToday: number; extra: number }): {
  current: number | null;
  extra: number;
  total: number | null;
} {
  const extra = extendBonusMinutes(x.extra);
  if (x.standing === null) return { current: null, extra, total: null };
  const current = x.standing + Math.max(0, x.extraToday);
  return { current, extra, total: current + extra };
}
