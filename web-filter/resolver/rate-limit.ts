/**
 * A token bucket per filter id: `burst` lookups at once, refilled at `perSecond`. A phone that floods (a loop in an
 * app, or someone with a stolen hostname) is answered REFUSED for the excess instead of reaching the upstreams.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
    /** Ids held at most; past it the buckets that have refilled are forgotten (a full bucket is the same as none). */
    private readonly maxIds = 100_000,
  ) {}

  take(id: string): boolean {
    const t = this.now();
    const bucket = this.buckets.get(id) ?? { tokens: this.burst, at: t };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((t - bucket.at) / 1000) * this.perSecond);
    bucket.at = t;
    if (!this.buckets.has(id)) {
      if (this.buckets.size >= this.maxIds) this.forgetFull(t);
      this.buckets.set(id, bucket);
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private forgetFull(t: number): void {
    for (const [id, b] of this.buckets) if (b.tokens + ((t - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(id);
  }
}
