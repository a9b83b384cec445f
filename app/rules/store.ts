import { AGE_RANGES, EXPERT_FILTERS, type AgeRange, type ExpertFilter, type StoreFilter } from "#core/store";
import type { InstallFailureReason } from "#device-service/socket/messages";

/** The store's URL parameters (spec 2 §2 /play-store). */
export const FILTER_PARAMS = ["playstoreText", "ageFilter", "filterCategory", "expertRatingFilter"] as const;
export const SEARCH_TEXT_MAX = 100;

/**
 * Search results: the first page, and each 'Show More' adds one (spec 2 sets no page size for the store; a phone's
 * screen shows about five rows, so twenty is four screens). The count shown lives in the URL (`shown`), so Show More
 * works without JavaScript and a reload keeps the list as long as it was.
 */
export const STORE_RESULTS_PAGE = 20;
/** The longest list of results: a search that needs more is too broad to read (the catalogue is curated). */
export const STORE_RESULTS_MAX = 400;

/** How many results the URL asks for: a whole number of pages from one page up to the longest list. */
export function resultsShown(params: URLSearchParams): number {
  const raw = params.get("shown") ?? "";
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (n <= STORE_RESULTS_PAGE) return STORE_RESULTS_PAGE;
  return Math.min(STORE_RESULTS_MAX, Math.ceil(n / STORE_RESULTS_PAGE) * STORE_RESULTS_PAGE);
}

/** The Show More / Show Less targets for `shown` results when `more` tells whether the database has further ones. */
export function resultsPaging(shown: number, more: boolean): { showMore: number | null; showLess: boolean } {
  return { showMore: more && shown < STORE_RESULTS_MAX ? shown + STORE_RESULTS_PAGE : null, showLess: shown > STORE_RESULTS_PAGE };
}

/** Spec 2 §4 age labels. */
export const AGE_LABELS: Record<AgeRange, string> = {
  AGE_RANGE1: "up to 5",
  AGE_RANGE2: "6-8",
  AGE_RANGE3: "9-12",
  AGE_RANGE_ALL: "all ages up to 12",
};
export const EXPERT_LABELS: Record<ExpertFilter, string> = {
  EXPERT_RECOMMENDATION: "Expert Recommended",
  PARENTAL_SUPERVISION: "Parental Supervision",
  "16+": "16+",
  NOT_RATED: "Not certified yet",
};

/**
 * The one filter in force. The page only ever links to one; a hand-made URL with several keeps the first of
 * text, age, category, expert rating (spec 2 §4: they are mutually exclusive).
 */
export function parseStoreFilter(params: URLSearchParams): StoreFilter {
  const text = (params.get("playstoreText") ?? "").trim().slice(0, SEARCH_TEXT_MAX);
  if (text) return { kind: "text", text };
  const age = params.get("ageFilter");
  if (age && (AGE_RANGES as readonly string[]).includes(age)) return { kind: "age", age: age as AgeRange };
  const category = (params.get("filterCategory") ?? "").trim();
  if (/^[A-Z_]{2,40}$/.test(category)) return { kind: "category", category };
  const expert = params.get("expertRatingFilter");
  if (expert && (EXPERT_FILTERS as readonly string[]).includes(expert)) return { kind: "expert", rating: expert as ExpertFilter };
  return { kind: "none" };
}

/** The parameter of a filter; applying it clears the others. */
export function filterParams(filter: StoreFilter): Partial<Record<(typeof FILTER_PARAMS)[number], string>> {
  switch (filter.kind) {
    case "text":
      return { playstoreText: filter.text };
    case "age":
      return { ageFilter: filter.age };
    case "category":
      return { filterCategory: filter.category };
    case "expert":
      return { expertRatingFilter: filter.rating };
    case "none":
      return {};
  }
}

/** `changes` for useHrefWith/hrefWith: this filter set, every other one removed. */
export function exclusiveFilterChanges(filter: StoreFilter): Record<string, string | null> {
  const set = filterParams(filter);
  return Object.fromEntries(FILTER_PARAMS.map((k) => [k, set[k] ?? null]));
}

/** Spec 2 §4 "Show result for …"; null without a filter. */
export function resultLabel(filter: StoreFilter, categoryName?: string | null): string | null {
  switch (filter.kind) {
    case "text":
      return `Show result for '${filter.text}'`;
    case "age":
      return `Show result for ${AGE_LABELS[filter.age]}`;
    case "category":
      return `Show result for ${categoryName ?? filter.category}`;
    case "expert":
      return `Show result for ${EXPERT_LABELS[filter.rating]}`;
    case "none":
      return null;
  }
}

/** Spec 2 §9: a currency sign when above 0. */
export function priceText(price: number, free: boolean): string {
  return !free && price > 0 ? `£${price.toFixed(2)}` : "Free";
}

export const COMING_SOON = "Coming Soon";
export const SYSTEM_APP_MESSAGE = "This is a system app and cannot be uninstalled.";
export const KIDS_APP_MESSAGE = "You don't have permission to uninstall this app";

export type InstallButton = "install" | "coming-soon" | "uninstall" | "system-app" | "kids-app" | "installing";

/**
 * Spec 2 §4 install button: not installed → Install when free, 'Coming Soon' when paid; installed → Uninstall,
 * except system apps and our kids app, which say why they stay. An install on its way shows as installing.
 */
export function installButton(
  a: {
    appId: string;
    isAppInstalled: boolean;
    isSystemApp: boolean;
    free: boolean;
    price: number;
    installState?: string | null;
    failureReason?: string | null;
  },
  kidsAppPackage: string,
): InstallButton {
  if (a.appId === kidsAppPackage) return "kids-app";
  if (a.isAppInstalled) return a.isSystemApp ? "system-app" : "uninstall";
  if (a.installState === "installing" || a.failureReason === "IN_PROGRESS") return "installing";
  if (!a.free && a.price > 0) return "coming-soon";
  return "install";
}

export interface FailureExplanation {
  title: string;
  /** What happened, what happens next, what the parent can do. */
  what: string;
  next: string;
  todo: string;
}

/** Spec 2 §8: each installation failure reason in plain words for a parent. */
export const FAILURE_EXPLANATIONS: Record<InstallFailureReason, FailureExplanation> = {
  INSTALLATION_FAILURE_REASON_UNKNOWN: {
    title: "The install failed for an unknown reason",
    what: "The phone tried to install the app but could not say why it failed.",
    next: "We try again automatically, waiting a little longer each time.",
    todo: "Nothing for now. If every attempt fails, check that the phone is on and connected, then press Install again.",
  },
  IN_PROGRESS: {
    title: "Installing",
    what: "The phone is downloading and installing the app.",
    next: "It appears under Installed as soon as the phone finishes.",
    todo: "Nothing: keep the phone on and connected.",
  },
  NOT_FOUND: {
    title: "The app is not in the Play Store",
    what: "Google Play could not find this app; it may have been removed from the store.",
    next: "We do not try again.",
    todo: "Choose another app, or ask us at support if you think it should be there.",
  },
  NOT_COMPATIBLE_WITH_DEVICE: {
    title: "The app does not work on this phone",
    what: "The app needs a newer Android version or hardware this phone does not have.",
    next: "We do not try again.",
    todo: "Choose a similar app that works on this phone.",
  },
  NOT_APPROVED: {
    title: "The app is not approved for this phone",
    what: "The phone's management account has not approved this app for installation.",
    next: "We do not try again.",
    todo: "Contact support so the app can be approved, then press Install again.",
  },
  PERMISSIONS_NOT_ACCEPTED: {
    title: "The app's new permissions were not accepted",
    what: "The app asks for permissions that have not been accepted for this phone.",
    next: "We do not try again.",
    todo: "Contact support to accept the app's permissions, then press Install again.",
  },
  NOT_AVAILABLE_IN_COUNTRY: {
    title: "The app is not available in this country",
    what: "The developer does not offer this app in the country the phone is registered in.",
    next: "We do not try again.",
    todo: "Choose another app that is available where you live.",
  },
  NO_LICENSES_REMAINING: {
    title: "No licences left for this app",
    what: "Every licence bought for this paid app is already in use.",
    next: "We do not try again.",
    todo: "Remove the app from another phone or contact support for more licences, then press Install again.",
  },
  NOT_ENROLLED: {
    title: "The phone is not fully set up",
    what: "The phone is no longer enrolled in management, so it cannot install apps for you.",
    next: "We do not try again.",
    todo: "Open the kids app on the phone and set it up again, then press Install again.",
  },
  USER_INVALID: {
    title: "The phone's Google account is not valid",
    what: "The account the phone installs apps with has been removed or is no longer valid.",
    next: "We do not try again.",
    todo: "Set up the kids app on the phone again, then press Install again.",
  },
  NETWORK_ERROR_UNRELIABLE_CONNECTION: {
    title: "The phone lost its connection",
    what: "The download stopped because the phone's internet connection was unreliable.",
    next: "The install resumes automatically as soon as the phone is back online.",
    todo: "Make sure the phone is on Wi-Fi or mobile data.",
  },
  INSUFFICIENT_STORAGE: {
    title: "The phone is out of storage",
    what: "There is not enough free space on the phone for this app.",
    next: "The install resumes automatically when the phone reports enough free space.",
    todo: "Free some space on the phone: remove unused apps, photos or videos.",
  },
};

export function failureExplanation(reason: string | null | undefined): FailureExplanation | null {
  return reason && reason in FAILURE_EXPLANATIONS ? FAILURE_EXPLANATIONS[reason as InstallFailureReason] : null;
}
