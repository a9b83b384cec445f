/**
 * The kid's requests as the parent sees them (spec 2 §2 /requests, §4, §9). Pure; the page and its tests share them.
 */
import { extendBonusMinutes, type ExtendStop } from "#core/limits";
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

export interface RequestButton {
  label: "Install" | "UnInstall" | "Extend" | "Coming Soon";
  /** Install and Extend open their popup. */
  modal: "install" | "extend" | null;
  /** UnInstall asks first (`?confirm=uninstall&id=…`). */
  confirm: "uninstall" | null;
}

/**
 * The answer button of each request: Install and Extend open their popup, UnInstall asks "are you sure?" first. A
 * paid app's install request says 'Coming Soon' (spec 2 §4: paid apps cannot be installed yet) and has no button.
 */
export function requestButton(type: AppRequestType, paid = false): RequestButton {
  switch (type) {
    case "App Install":
      return paid ? { label: "Coming Soon", modal: null, confirm: null } : { label: "Install", modal: "install", confirm: null };
    case "App Uninstall":
      return { label: "UnInstall", modal: null, confirm: "uninstall" };
    case "Extend Time":
      return { label: "Extend", modal: "extend", confirm: null };
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

/**
 * What extra minutes do for an app with no daily limit (device-service/policy/enforce.ts: a bonus raises a limit;
 * without one there is nothing to raise): nothing now; they count if the app gets a limit today.
 */
export function noLimitExtendNote(appTitle: string, kidName: string): string {
  return `${appTitle} has no daily limit, so ${kidName} can already use it as long as the phone's other time rules allow. The extra minutes change nothing now; they count only if you give ${appTitle} a daily limit today.`;
}

/** The extend popup's warning (spec 2 §2, §4 category-disabled warning): what stops the app, and where to change it. */
export function extendWarning(
  stop: ExtendStop,
  x: { appTitle: string; kidName: string; categoryName: string },
): { text: string; link: string } {
  const phone = `${x.kidName.endsWith("s") ? `${x.kidName}'` : `${x.kidName}'s`} phone`;
  switch (stop) {
    case "app-disabled":
      return {
        text: `${x.appTitle} is disabled on ${phone}, so extra time would not let it run. Enable the app first.`,
        link: `Change ${x.appTitle}`,
      };
    case "category-disabled":
      return {
        text: `The ${x.categoryName} category is disabled on ${phone}, so extra time would not let ${x.appTitle} run. Enable the category first.`,
        link: `Change the ${x.categoryName} category`,
      };
    case "category-used-up":
      return {
        text: `The ${x.categoryName} category has used up its daily limit today, so extra time would not let ${x.appTitle} run. Raise the category's limit first.`,
        link: `Change the ${x.categoryName} category`,
      };
  }
}
