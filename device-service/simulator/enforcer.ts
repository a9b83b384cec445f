import { localDay, MINUTE_MS, safeTimeZone } from "../../core/zoned-time";
import type { PolicyDocument } from "../policy/build";
import { decide, nextChangeAt, type BlockReason, type UseInterval } from "../policy/enforce";
import { SimClock } from "./clock";
import type { SimulatedPhone } from "./phone";
import { dueWarnings, nextScheduleWarningAt, type KidWarning } from "./warnings";

export interface AppStateChange {
  packageName: string;
  disabled: boolean;
  reason: BlockReason | null;
}

const hourOf = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000).toISOString();

/**
 * The simulated phone's enforcement: it keeps the usage it generates (absolute minutes per app per hour, as
 * the protocol sends them, and the intervals of use for session limits), runs the enforcement decision
 * (policy/enforce.ts) after every usage report, every policy and at every time-driven change (a schedule
 * starting or ending, a break ending, the kid's midnight in the family's zone), and reports each change with an
 * `app_state` frame so the portal shows why an app stopped. It decides alone: offline, the frames wait for the
 * socket. Its clock (simulator/clock.ts) can be set or sped up; it records the warnings the kid would see.
 */
export class PhoneEnforcer {
  readonly clock = new SimClock();
  /** Every warning the phone showed the kid, in order. */
  readonly warnings: KidWarning[] = [];
  /** "hour|package" → minutes */
  private readonly hours = new Map<string, number>();
  /** package → why the phone blocks it */
  private readonly blocks = new Map<string, BlockReason>();
  private intervals: UseInterval[] = [];
  private readonly warned = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly phone: SimulatedPhone) {}

  private get policy(): PolicyDocument | undefined {
    const p = this.phone.state.policy as PolicyDocument | undefined;
    return p?.apps ? p : undefined;
  }

  private get timeZone(): string {
    return safeTimeZone(this.policy?.timeZone);
  }

  /** What was used before this phone object existed (the demo's stored usage). */
  knowUsage(buckets: { packageName: string; hour: string; minutes: number }[]): void {
    for (const b of buckets) this.hours.set(`${hourOf(new Date(b.hour))}|${b.packageName}`, b.minutes);
  }

  minutesInHour(packageName: string, at: Date): number {
    return this.hours.get(`${hourOf(at)}|${packageName}`) ?? 0;
  }

  /** Minutes per package on the kid's local `day` (in the policy's zone). */
  usageOn(day: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, minutes] of this.hours) {
      const [hour, pkg] = key.split("|");
      if (localDay(new Date(hour), this.timeZone) === day) out[pkg] = (out[pkg] ?? 0) + minutes;
    }
    return out;
  }

  private usageToday(now: Date) {
    return this.usageOn(localDay(now, this.timeZone));
  }

  /** The kid used an app for `minutes` more, ending at `at`: reported (absolute, per hour), then enforced. */
  async useApp(packageName: string, minutes: number, at: Date = this.clock.now()): Promise<AppStateChange[]> {
    const hour = hourOf(at);
    const total = Math.min(60, this.minutesInHour(packageName, at) + minutes);
    this.hours.set(`${hour}|${packageName}`, total);
    this.intervals.push({ packageName, start: new Date(at.getTime() - minutes * MINUTE_MS), end: at });
    await this.report([{ packageName, hour, minutes: total }]);
    const changes = await this.enforce(at);
    this.warn(at);
    return changes;
  }

  /**
   * The kid uses an app for up to `minutes`, minute by minute on the phone's clock (which moves on), until the
   * phone blocks it; warnings fall due on the way. Resolves with the minutes used and the block that stopped it.
   */
  async play(packageName: string, minutes: number): Promise<{ used: number; stoppedBy: BlockReason | null }> {
    const touched = new Set<string>();
    let used = 0;
    let stoppedBy: BlockReason | null = null;
    for (; used < minutes; used++) {
      const now = this.clock.now();
      await this.enforce(now);
      this.warn(now);
      const b = this.blocks.get(packageName);
      if (b) {
        stoppedBy = b;
        break;
      }
      const hour = hourOf(now);
      this.hours.set(`${hour}|${packageName}`, Math.min(60, this.minutesInHour(packageName, now) + 1));
      touched.add(hour);
      const last = this.intervals.at(-1);
      const end = new Date(now.getTime() + MINUTE_MS);
      if (last && last.packageName === packageName && last.end.getTime() === now.getTime()) last.end = end;
      else this.intervals.push({ packageName, start: now, end });
      this.clock.set(end);
    }
    await this.report([...touched].map((hour) => ({ packageName, hour, minutes: this.hours.get(`${hour}|${packageName}`) ?? 0 })));
    const now = this.clock.now();
    await this.enforce(now);
    this.warn(now);
    if (!stoppedBy && this.blocks.get(packageName)) stoppedBy = this.blocks.get(packageName)!;
    return { used, stoppedBy };
  }

  /** Moves the phone's clock on by `ms`, enforcing at every change and warning on the way. */
  async advance(ms: number): Promise<AppStateChange[]> {
    return this.advanceTo(new Date(this.clock.now().getTime() + ms));
  }

  async advanceTo(target: Date): Promise<AppStateChange[]> {
    const changes: AppStateChange[] = [];
    for (let i = 0; i < 10_000; i++) {
      const now = this.clock.now();
      const next = this.nextEventAt(now);
      const at = next && next < target ? next : target;
      this.clock.set(at);
      changes.push(...(await this.enforce(at)));
      this.warn(at);
      if (at >= target) break;
    }
    return changes;
  }

  /** Re-evaluates at a given time (the midnight roll-over); reports what changed. */
  tick(now: Date = this.clock.now()): Promise<AppStateChange[]> {
    return this.enforce(now);
  }

  /** Why the phone blocks this app right now (as of its last enforcement), or null when the kid may use it. */
  blockedBy(packageName: string): BlockReason | null {
    return this.blocks.get(packageName) ?? null;
  }

  manualBlocks(): string[] {
    return [...this.blocks].filter(([, r]) => r === "Manually").map(([p]) => p);
  }

  async enforce(now: Date = this.clock.now()): Promise<AppStateChange[]> {
    const policy = this.policy;
    if (!policy) return [];
    const today = localDay(now, this.timeZone);
    this.intervals = this.intervals.filter((i) => localDay(i.end, this.timeZone) === today || i.end > now);
    const changes: AppStateChange[] = [];
    const decisions = decide({ policy, usageToday: this.usageToday(now), now, recentUse: this.intervals });
    for (const d of decisions) {
      const was = this.blocks.get(d.packageName) ?? null;
      if (was === d.reason) continue;
      if (d.reason) {
        this.blocks.set(d.packageName, d.reason);
        this.phone.state.disabled.add(d.packageName);
      } else {
        this.blocks.delete(d.packageName);
        this.phone.state.disabled.delete(d.packageName);
      }
      changes.push({ packageName: d.packageName, disabled: d.blocked, reason: d.reason });
    }
    for (const c of changes) await this.sendOrQueue("app_state", c);
    this.scheduleTimer(now);
    return changes;
  }

  private nextEventAt(now: Date): Date | null {
    const policy = this.policy;
    if (!policy) return null;
    const change = nextChangeAt(decide({ policy, usageToday: this.usageToday(now), now, recentUse: this.intervals }), { policy, now });
    const warning = nextScheduleWarningAt(policy, now);
    return warning && warning < change ? warning : change;
  }

  private warn(now: Date): void {
    const policy = this.policy;
    if (!policy) return;
    for (const w of dueWarnings(policy, this.usageToday(now), now)) {
      if (this.warned.has(w.key)) continue;
      this.warned.add(w.key);
      const { key: _key, ...shown } = w;
      this.warnings.push({ at: now.toISOString(), ...shown });
      this.phone.emit("warning", this.warnings.at(-1));
    }
  }

  /** Usage the portal refuses (a clock set far from the server's, in tests and demos) is logged; the phone still enforces. */
  private async report(buckets: { packageName: string; hour: string; minutes: number }[]) {
    if (!buckets.length) return;
    await this.sendOrQueue("usage", { buckets }).catch((err: unknown) =>
      this.phone.opts.log?.(`[${this.phone.serialNumber}] usage refused: ${String(err)}`),
    );
  }

  /** Online: sent and acknowledged. Offline: kept for the socket (re-sent with the same id on reconnect). */
  private async sendOrQueue(event: "usage" | "app_state", data: unknown): Promise<void> {
    const sent = this.phone.send(event, data);
    if (this.phone.connected) await sent;
    else sent.catch(() => undefined);
  }

  /** A running clock (real or sped up) enforces by itself at the next change. */
  private scheduleTimer(now: Date): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.autoTick) return;
    const next = this.nextEventAt(now);
    const ms = next ? this.clock.realMsUntil(next) : null;
    if (ms === null) return;
    this.timer = setTimeout(
      () => {
        const at = this.clock.now();
        void this.enforce(at)
          .then(() => this.warn(at))
          .catch(() => undefined);
      },
      Math.min(ms + 5, 2_147_000_000),
    );
    this.timer.unref?.();
  }

  /** Off by default (tests drive the clock); the demo turns it on. */
  autoTick = false;

  stop(): void {
    this.autoTick = false;
    if (this.timer) clearTimeout(this.timer);
  }
}
