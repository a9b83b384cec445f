/** The demo family's ids, read from the pages themselves (the demo seed makes new ids on every start). */
export interface DemoIds {
  mia: { profileId: string; serialNumber: string };
  leo: { profileId: string; serialNumber: string };
  /** An app on Mia's phone and one of its categories (from the dashboard's most used lists). */
  packageName: string;
  categoryId: string;
}

export type Who = "signed-out" | "parent" | "operator";

export interface BuiltPage {
  /** Shown in the test name. */
  name: string;
  who: Who;
  url: (ids: DemoIds) => string;
  /** The HTTP status the page answers with (200 unless told). */
  status?: number;
}

const kid = (ids: DemoIds, who: "mia" | "leo" = "mia") =>
  new URLSearchParams({ profileId: ids[who].profileId, serialNumber: ids[who].serialNumber }).toString();
const dash = (ids: DemoIds, extra: string, who: "mia" | "leo" = "mia") => `/kids-device?profileId=${ids[who].profileId}${extra}`;

/**
 * Every built page and popup, once. The accessibility check (e2e/a11y.spec.ts) runs axe-core on each in both
 * projects and the Nu Html Checker on each page's server HTML; markup.test.ts checks the same server HTML in the
 * ordinary suite. Plain data (no Playwright import), so vitest reads it too. A page built later joins this array.
 */
export const BUILT_PAGES: BuiltPage[] = [
  // Signed out: the spec's public routes, the help page, the legal pages, not found.
  { name: "login", who: "signed-out", url: () => "/login" },
  { name: "registration", who: "signed-out", url: () => "/registration" },
  { name: "forget-password", who: "signed-out", url: () => "/forget-password" },
  { name: "verify-otp", who: "signed-out", url: () => "/verify-otp?email=someone%40example.com" },
  { name: "password-set", who: "signed-out", url: () => "/password/set" },
  { name: "reset-password", who: "signed-out", url: () => "/reset-password" },
  { name: "contact (signed out)", who: "signed-out", url: () => "/contact" },
  { name: "legal privacy", who: "signed-out", url: () => "/legal/privacy" },
  { name: "not found", who: "signed-out", url: () => "/no-such-page", status: 404 },
  // The dashboard and its popups.
  { name: "dashboard", who: "parent", url: (ids) => dash(ids, "") },
  { name: "dashboard info tab", who: "parent", url: (ids) => dash(ids, "&tab=info") },
  { name: "dashboard week", who: "parent", url: (ids) => dash(ids, "&filter=week") },
  { name: "popup sleep", who: "parent", url: (ids) => dash(ids, "&modal=sleep") },
  { name: "popup protection", who: "parent", url: (ids) => dash(ids, "&modal=protection") },
  { name: "popup recommendation", who: "parent", url: (ids) => dash(ids, "&modal=recommendation") },
  { name: "popup edit kid", who: "parent", url: (ids) => dash(ids, "&modal=edit") },
  { name: "popup permissions", who: "parent", url: (ids) => dash(ids, "&modal=permissions", "leo") },
  { name: "popup notifications", who: "parent", url: (ids) => dash(ids, "&modal=notifications") },
  { name: "popup add kid", who: "parent", url: (ids) => dash(ids, "&modal=add-kid") },
  { name: "popup replace phone", who: "parent", url: (ids) => dash(ids, "&modal=replace-phone") },
  { name: "popup remove kid", who: "parent", url: (ids) => dash(ids, "&modal=remove-kid") },
  { name: "popup enroll", who: "parent", url: (ids) => dash(ids, "&modal=enroll") },
  { name: "popup logout", who: "parent", url: (ids) => dash(ids, "&modal=logout") },
  // Kid settings.
  { name: "global settings", who: "parent", url: (ids) => `/global-settings?${kid(ids)}` },
  { name: "location settings", who: "parent", url: (ids) => `/location-settings?${kid(ids)}` },
  { name: "web filter", who: "parent", url: (ids) => `/web-filter?${kid(ids)}` },
  {
    name: "web filter draft",
    who: "parent",
    url: (ids) => `/web-filter?${kid(ids)}&draft=1&block=social-networks&safeSearch=on&youtube=strict&allow=khanacademy.org`,
  },
  {
    name: "device info",
    who: "parent",
    url: (ids) => `/device-info?${new URLSearchParams({ profile_id: ids.mia.profileId, serialNumber: ids.mia.serialNumber })}`,
  },
  {
    name: "device info lock confirm",
    who: "parent",
    url: (ids) =>
      `/device-info?${new URLSearchParams({ profile_id: ids.mia.profileId, serialNumber: ids.mia.serialNumber, confirm: "lock" })}`,
  },
  { name: "map", who: "parent", url: () => "/map?lat=51.5014&long=-0.1419&zoom=12" },
  // Account pages.
  // Alerts (issue 55).
  { name: "alerts", who: "parent", url: () => "/alerts" },
  { name: "alerts of one kid and kind", who: "parent", url: (ids) => `/alerts?kid=${ids.leo.profileId}&kind=request.install` },
  { name: "alert settings", who: "parent", url: () => "/alert-settings" },
  { name: "alert e-mails unsubscribe (bad link)", who: "signed-out", url: () => "/alerts/unsubscribe?parent=p&sig=s", status: 400 },
  { name: "change password", who: "parent", url: () => "/change-password" },
  { name: "api tokens", who: "parent", url: () => "/api-tokens" },
  { name: "account security", who: "parent", url: () => "/account" },
  { name: "webhooks", who: "parent", url: () => "/webhooks" },
  { name: "contact", who: "parent", url: () => "/contact" },
  { name: "payment history", who: "parent", url: () => "/payment-history" },
  { name: "payment methods", who: "parent", url: () => "/payment-methods" },
  { name: "payment methods add", who: "parent", url: () => "/payment-methods?modal=add" },
  { name: "parent profile", who: "parent", url: () => "/parent-profile" },
  { name: "parent profile add", who: "parent", url: () => "/parent-profile?modal=add" },
  { name: "parent profile add a kid", who: "parent", url: () => "/parent-profile?modal=add-kid" },
  // Logs.
  { name: "browser logs", who: "parent", url: (ids) => `/browser-logs?${kid(ids)}` },
  { name: "browser logs, sites visited", who: "parent", url: (ids) => `/browser-logs?${kid(ids)}&view=sites` },
  { name: "device logs", who: "parent", url: (ids) => `/device-logs?${kid(ids, "leo")}` },
  { name: "server logs", who: "operator", url: () => "/server-logs" },
  { name: "no access (a parent on an operators' page)", who: "parent", url: () => "/server-logs", status: 403 },
  // Apps.
  {
    name: "application info",
    who: "parent",
    url: (ids) =>
      `/application?${new URLSearchParams({ package_name: ids.packageName, profile_id: ids.mia.profileId, serialNumber: ids.mia.serialNumber })}`,
  },
  {
    name: "application usage",
    who: "parent",
    url: (ids) =>
      `/application?${new URLSearchParams({ package_name: ids.packageName, profile_id: ids.mia.profileId, serialNumber: ids.mia.serialNumber, tab: "usage" })}`,
  },
  {
    name: "application rating popup",
    who: "parent",
    url: (ids) =>
      `/application?${new URLSearchParams({ package_name: ids.packageName, profile_id: ids.mia.profileId, serialNumber: ids.mia.serialNumber, modal: "rating" })}`,
  },
  {
    name: "category",
    who: "parent",
    url: (ids) =>
      `/category?${new URLSearchParams({ id: ids.categoryId, profileId: ids.mia.profileId, serialNumber: ids.mia.serialNumber })}`,
  },
  { name: "apps", who: "parent", url: (ids) => `/apps?${kid(ids)}` },
  { name: "requests", who: "parent", url: (ids) => `/requests?${kid(ids)}` },
  { name: "play store", who: "parent", url: (ids) => `/play-store?${kid(ids)}` },
  { name: "schedules", who: "parent", url: (ids) => `/schedules?${kid(ids)}` },
  { name: "reports", who: "parent", url: (ids) => `/reports?${kid(ids)}` },
];
