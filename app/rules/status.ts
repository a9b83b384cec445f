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
