/**
 * Icons and colours of a status: the phone's battery, a setting the phone has (or has not yet) acknowledged,
 * and a delegated access's badge.
 */

// ---------------------------------------------------------------- icons and colours

export type BatteryIcon = "full" | "half" | "low" | "unknown";

/** Full above 80, half from 20 to 80, low below 20. */
export function batteryIcon(percent: number | null | undefined): BatteryIcon {
  if (percent == null || !Number.isFinite(percent)) return "unknown";
  if (percent > 80) return "full";
  if (percent >= 20) return "half";
  return "low";
}

export type AckColour = "green" | "warning" | "off";

/** Sleep-mode and protection icons: green once the phone acknowledged, warning-coloured while pending. */
export function ackColour(enabled: boolean, acknowledged: boolean): AckColour {
  if (!acknowledged) return "warning";
  return enabled ? "green" : "off";
}

/** How often a page without JavaScript reloads itself while a command waits for the phone (root.tsx). */
export const NO_JS_REFRESH_SECONDS = 5;

/** The query flag that makes each self-refresh's URL differ from the page's own (see `noJsRefreshUrl`). */
export const REFRESH_FLAG = "refreshed";

/**
 * Where a page without JavaScript refreshes itself to. Without a section: the page's path and query, no fragment.
 * With one (`at`, the id of the section that waits for the phone): the same, plus `#at`, so every refresh comes
 * back at that section. A browser treats a refresh to its own URL with only a fragment as a jump inside the page
 * (no reload, and no further refresh), so the URL alternates with and without `refreshed=1` to reload each time.
 */
export function noJsRefreshUrl(pathname: string, search: string, at: string | null | undefined): string {
  if (!at) return `${pathname}${search}`;
  const params = new URLSearchParams(search);
  if (params.has(REFRESH_FLAG)) params.delete(REFRESH_FLAG);
  else params.set(REFRESH_FLAG, "1");
  const q = params.toString();
  return `${pathname}${q ? `?${q}` : ""}#${encodeURIComponent(at)}`;
}
