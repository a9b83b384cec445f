/** Shared by the fleet benches (bench/device-fleet.ts, bench/mixed-load.ts) and their child processes. */

/**
 * When the bench phones were "enrolled": the start of the current hour. Their usage hours start there (the protocol
 * refuses earlier ones), and no report period of theirs has closed yet: enrolled in 2000, every fleet kid had a
 * weekly and monthly report due, and the reports job built them while the bench measured an "idle" fleet.
 */
export function enrolledThisHour(now = Date.now()): string {
  return new Date(Math.floor(now / 3_600_000) * 3_600_000).toISOString();
}
