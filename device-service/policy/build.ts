/**
 * The device policy: a pure function of a kid's settings to a document the phone enforces. The version is
 * assigned by storage (policy/store.ts) when the document changes; this module has no I/O.
 */

export const KIDS_APP_PACKAGE_DEFAULT = "com.kidsportal.kidsapp";

export interface PolicyAppInput {
  packageName: string;
  category: string;
  disabled: boolean;
  disabledType: string | null;
  enableDailyLimit: boolean;
  dailyLimitMinutes: number;
  installed: boolean;
}

export interface PolicyCategoryInput {
  category: string;
  enabled: boolean;
  enableDailyLimit: boolean;
  dailyLimitMinutes: number;
}

export interface PolicyInput {
  sleepMode: boolean;
  protectionEnabled: boolean;
  allowFullDeviceAccess: boolean;
  apps: PolicyAppInput[];
  categories: PolicyCategoryInput[];
  /** 0 = no global limit */
  globalDailyLimitMinutes: number;
  blockedUrls: string[];
  locationTracking: { enabled: boolean; intervalMinutes: number };
  kidsAppPackage?: string;
}

export interface PolicyApp {
  packageName: string;
  category: string;
  installType: "FORCE_INSTALLED" | "AVAILABLE";
  disabled: boolean;
  disabledReason: string | null;
  dailyLimitMinutes: number | null;
}

export interface PolicyDocument {
  schema: 1;
  sleepMode: { enabled: boolean; allowedPackages: string[] };
  protection: { kidsAppProtected: boolean; settingsLocked: boolean; allowFullDeviceAccess: boolean };
  apps: PolicyApp[];
  limits: {
    globalDailyLimitMinutes: number | null;
    categories: { category: string; enabled: boolean; dailyLimitMinutes: number | null }[];
  };
  blockedUrls: string[];
  location: { tracking: boolean; intervalMinutes: number };
}

/** Minutes are whole multiples of 15 and never negative (spec 1 §5). */
export function normaliseMinutes(m: number): number {
  if (!Number.isFinite(m) || m <= 0) return 0;
  return Math.ceil(Math.floor(m) / 15) * 15;
}

export function normaliseUrl(url: string): string {
  const trimmed = url.trim().toLowerCase();
  const withoutScheme = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  return withoutScheme.replace(/\/+$/, "");
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function buildPolicy(input: PolicyInput): PolicyDocument {
  const kidsApp = input.kidsAppPackage ?? KIDS_APP_PACKAGE_DEFAULT;
  const limitsEnforced = !input.allowFullDeviceAccess;
  const apps: PolicyApp[] = [...input.apps]
    .filter((a) => a.installed)
    .sort((a, b) => byString(a.packageName, b.packageName))
    .map((a) => {
      const isKidsApp = a.packageName === kidsApp;
      const limit = a.enableDailyLimit ? normaliseMinutes(a.dailyLimitMinutes) : 0;
      return {
        packageName: a.packageName,
        category: a.category,
        installType: isKidsApp ? "FORCE_INSTALLED" : "AVAILABLE",
        // The kids app is never disabled; full device access lifts every restriction.
        disabled: !isKidsApp && limitsEnforced && a.disabled,
        disabledReason: !isKidsApp && limitsEnforced && a.disabled ? (a.disabledType ?? "Manually") : null,
        dailyLimitMinutes: !isKidsApp && limitsEnforced && limit > 0 ? limit : null,
      };
    });
  const categories = [...input.categories]
    .sort((a, b) => byString(a.category, b.category))
    .map((c) => {
      const limit = c.enableDailyLimit ? normaliseMinutes(c.dailyLimitMinutes) : 0;
      return { category: c.category, enabled: limitsEnforced ? c.enabled : true, dailyLimitMinutes: limitsEnforced && limit > 0 ? limit : null };
    });
  const global = normaliseMinutes(input.globalDailyLimitMinutes);
  const tracking = input.locationTracking.enabled;
  return {
    schema: 1,
    // Sleep mode stops the kid's access to the device: only the kids app stays usable (it shows the sleep screen).
    sleepMode: { enabled: input.sleepMode, allowedPackages: input.sleepMode ? [kidsApp] : [] },
    protection: {
      kidsAppProtected: input.protectionEnabled,
      settingsLocked: input.protectionEnabled && !input.allowFullDeviceAccess,
      allowFullDeviceAccess: input.allowFullDeviceAccess,
    },
    apps,
    limits: { globalDailyLimitMinutes: limitsEnforced && global > 0 ? global : null, categories },
    blockedUrls: [...new Set(input.blockedUrls.map(normaliseUrl).filter(Boolean))].sort(byString),
    location: { tracking, intervalMinutes: tracking ? Math.max(15, normaliseMinutes(input.locationTracking.intervalMinutes)) : 0 },
  };
}

/** The parts of a policy whose acknowledgement the dashboard shows separately. */
export function policyAspects(doc: PolicyDocument) {
  return {
    sleepMode: JSON.stringify(doc.sleepMode),
    protection: JSON.stringify(doc.protection),
    limits: JSON.stringify({ apps: doc.apps.map((a) => [a.packageName, a.disabled, a.dailyLimitMinutes]), limits: doc.limits }),
  };
}

export function samePolicy(a: PolicyDocument, b: PolicyDocument): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
