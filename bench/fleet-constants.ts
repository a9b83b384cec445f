/** Shared by bench/device-fleet.ts and its child process (which must not be imported: it runs on import). */

/** When the bench phones were "enrolled": their usage hours start here (the protocol refuses earlier ones). */
export const BENCH_ENROLLED_AT = "2000-01-02T00:00:00.000Z";
