/**
 * What the web filter's benches share (bench/web-filter-lists.ts, bench/web-filter.ts): the generated domains
 * (seeded, pronounceable names of 2–4 syllables, a third under a subdomain, a realistic mix of TLDs; ~21 characters
 * on average, like the public hosts lists), the names looked up (half listed, half not), the memory in use after a
 * full GC, and per-call timing with its percentiles.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { prng } from "../db/seed/index";

export const MB = 1024 * 1024;

const SYLLABLES =
  "ba be bi bo bu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo za zo tor lin net web ad max pro top bet cam play".split(
    " ",
  );
const SUBS = ["www", "ads", "cdn", "m", "api", "track", "static", "img", "stats", "pixel", "media", "go"];
const TLDS = [
  "com",
  "com",
  "com",
  "com",
  "com",
  "net",
  "net",
  "org",
  "io",
  "info",
  "xyz",
  "ru",
  "de",
  "co.uk",
  "fr",
  "top",
  "online",
  "site",
  "cn",
  "br",
];

/** A generated domain: `word[-word].tld`, a third under a subdomain. The same seed makes the same sequence. */
export function domainMaker(seed: number): () => string {
  const rand = prng(seed);
  const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)];
  const word = () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(SYLLABLES)).join("");
  return () => {
    const base = `${word()}${rand() < 0.3 ? `-${word()}` : ""}${Math.floor(rand() * 100)}.${pick(TLDS)}`;
    return rand() < 0.33 ? `${pick(SUBS)}.${base}` : base;
  };
}

/** The seed of the listed domains: `domainMaker(LISTED_SEED)` makes them in the order they were listed. */
export const LISTED_SEED = 54;

/**
 * `count` names to look up among `domains` listed ones (made by `domainMaker(LISTED_SEED)`): half listed, spread
 * over the whole list (a third of those under a new subdomain), half unlisted.
 */
export function lookupNames(count: number, domains: number): string[] {
  const listed = domainMaker(LISTED_SEED);
  const unlisted = domainMaker(4554);
  const rand = prng(7);
  // Skip a random 0…stride-1 listed domains between two (half the list on average).
  const stride = Math.max(1, Math.floor((domains * 2) / count));
  return Array.from({ length: count }, (_, i) => {
    if (i % 2) return unlisted();
    const d = listed();
    for (let skip = Math.floor(rand() * stride); skip > 0; skip--) listed();
    return rand() < 0.33 ? `x${i}.${d}` : d;
  });
}

let gc: (() => void) | undefined;
/** Heap and array buffers in use after a full GC (bytes). */
export function memoryInUse(): number {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** The value at percentile `p` of sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times `fn` once per name (ms): p50 and p99. */
export function timeEach(names: string[], fn: (name: string) => unknown): { p50: number; p99: number } {
  const times = new Float64Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const t0 = process.hrtime.bigint();
    fn(names[i]);
    times[i] = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  times.sort();
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}
