/**
 * The simulated phone's clock (issue 21): real time by default; tests set it (it then stands still until
 * advanced) and demos speed it up (`speed(60)`: a minute a second). The enforcer reads it for every decision.
 */
export class SimClock {
  /** Virtual time at `realBase`, or null: the real clock. */
  private base: number | null = null;
  private realBase = 0;
  private factor = 0;

  now(): Date {
    if (this.base === null) return new Date();
    return new Date(this.base + (Date.now() - this.realBase) * this.factor);
  }

  /** Stands the clock at `at` (or lets it run from there `speed` times faster than real time). */
  set(at: Date | string, speed = 0): void {
    this.base = new Date(at).getTime();
    this.realBase = Date.now();
    this.factor = speed;
  }

  advance(ms: number): Date {
    this.set(new Date(this.now().getTime() + ms), this.factor);
    return this.now();
  }

  /** Runs from the current time `factor` times faster than real time (0 stops it). */
  speed(factor: number): void {
    this.set(this.now(), factor);
  }

  /** Back to the real clock. */
  real(): void {
    this.base = null;
    this.factor = 0;
  }

  /** Real milliseconds until the virtual time `at`, or null when the clock stands still. */
  realMsUntil(at: Date): number | null {
    if (this.base === null) return Math.max(0, at.getTime() - Date.now());
    if (this.factor <= 0) return null;
    return Math.max(0, (at.getTime() - this.now().getTime()) / this.factor);
  }
}
