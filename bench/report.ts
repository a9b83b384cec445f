/**
 * The one machine-readable line every bench ends with (issue 22 item 6):
 *   {"bench": …, "figures": {…}, "baselines": {…}, "ratios": {…}, "targets": {…}, "met": true|false}
 * `figures` are the measured values, `baselines` the reference values measured in the same run, `ratios`
 * figure ÷ baseline, `targets` maps a figure or ratio name to its bound ({max} or {min}); `met` is true when
 * every target is met. With `--json` a bench prints only that line on stdout (its prose goes nowhere), so
 * runs can be compared line by line.
 *
 * Exit codes shared by the benches and `npm run bench:all`: 0 ran and met every target, 3 ran and missed one
 * (the line says which figures), 1 could not run (a limit, a deadline, a crash), 2 usage error.
 */

export type Bound = { max: number } | { min: number };

export interface BenchResult {
  bench: string;
  figures: Record<string, number>;
  baselines: Record<string, number>;
  ratios: Record<string, number>;
  targets: Record<string, Bound>;
  met: boolean;
}

export const EXIT_MET = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_MISSED = 3;

/** Rounds to 4 significant decimals so lines stay short and comparable. */
const round = (x: number) => (Number.isFinite(x) ? Math.round(x * 10_000) / 10_000 : x);
const rounded = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v)]));

/** Which targets a result misses (a target names a key of `figures` or `ratios`; a missing value misses). */
export function missedTargets(r: Pick<BenchResult, "figures" | "ratios" | "targets">): string[] {
  const missed: string[] = [];
  for (const [name, bound] of Object.entries(r.targets)) {
    const v = name in r.ratios ? r.ratios[name] : r.figures[name];
    const ok = typeof v === "number" && Number.isFinite(v) && ("max" in bound ? v <= bound.max : v >= bound.min);
    if (!ok) missed.push(name);
  }
  return missed;
}

export function benchResult(r: Omit<BenchResult, "met">): BenchResult {
  const out = {
    bench: r.bench,
    figures: rounded(r.figures),
    baselines: rounded(r.baselines),
    ratios: rounded(r.ratios),
    targets: r.targets,
  };
  return { ...out, met: missedTargets(out).length === 0 };
}

/** Checks the shape of a parsed line (bench:all and the tests use it); returns what is wrong, or []. */
export function shapeProblems(x: unknown): string[] {
  if (!x || typeof x !== "object") return ["not an object"];
  const o = x as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof o.bench !== "string" || !o.bench) problems.push("bench is not a name");
  for (const k of ["figures", "baselines", "ratios"] as const) {
    const v = o[k];
    if (!v || typeof v !== "object" || Array.isArray(v)) problems.push(`${k} is not an object`);
    else for (const [n, num] of Object.entries(v)) if (typeof num !== "number") problems.push(`${k}.${n} is not a number`);
  }
  const t = o.targets;
  if (!t || typeof t !== "object" || Array.isArray(t)) problems.push("targets is not an object");
  else
    for (const [n, b] of Object.entries(t as Record<string, unknown>)) {
      const ok =
        b &&
        typeof b === "object" &&
        (typeof (b as { max?: unknown }).max === "number" || typeof (b as { min?: unknown }).min === "number");
      if (!ok) problems.push(`targets.${n} is not {max} or {min}`);
    }
  if (typeof o.met !== "boolean") problems.push("met is not true or false");
  const keys = Object.keys(o).sort().join(",");
  if (keys !== "baselines,bench,figures,met,ratios,targets") problems.push(`unexpected keys: ${keys}`);
  return problems;
}

/** Prose for people (silent with --json) and the final line. */
export function reporter(json: boolean) {
  return {
    json,
    say(line: string) {
      if (!json) console.log(line);
    },
    /** Prints the result line (always last) and returns the exit code for it. */
    finish(r: BenchResult): number {
      if (!json) {
        const missed = missedTargets(r);
        console.log(r.met ? "all targets met" : `targets missed: ${missed.join(", ")}`);
      }
      console.log(JSON.stringify(r));
      return r.met ? EXIT_MET : EXIT_MISSED;
    },
  };
}
