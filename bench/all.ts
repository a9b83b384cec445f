/**
 * `npm run bench:all`: every bench at its default sizes (the fleet at 50,000 phones over 4 device processes),
 * one after the other, each ending with its JSON line (bench/report.ts). `--json` prints only those lines,
 * one per bench; `--smoke` runs tiny sizes that only check every bench still runs end to end (its figures
 * are no measurement). Exit: 1 if a bench could not run, else 3 if one missed a target, else 0.
 * The dashboard bench needs `npx remix build` first.
 */
import { spawn } from "node:child_process";
import { BENCHES } from "./benches";
import { EXIT_FAILED, EXIT_MET, EXIT_MISSED, shapeProblems, type BenchResult } from "./report";

const args = process.argv.slice(2);
for (const a of args) {
  if (a !== "--json" && a !== "--smoke") {
    process.stderr.write(`Unknown option '${a}'. bench:all takes --json and --smoke.\n`);
    process.exit(2);
  }
}
const JSON_ONLY = args.includes("--json");
const SMOKE = args.includes("--smoke");

function run(script: string, extra: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", script, ...extra, "--json"], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    proc.stdout.on("data", (d) => (stdout += d));
    proc.once("error", reject);
    proc.once("exit", (code) => resolve({ code, stdout }));
  });
}

let failed = false;
let missed = false;
for (const b of BENCHES) {
  if (!JSON_ONLY) console.log(`== ${b.name} ${(SMOKE ? b.smoke : b.args).join(" ")}${SMOKE ? " (smoke: no measurement)" : ""}`);
  const r = await run(b.script, SMOKE ? b.smoke : b.args);
  const line = r.stdout.trim().split("\n").pop() ?? "";
  let parsed: BenchResult | null = null;
  try {
    parsed = JSON.parse(line) as BenchResult;
  } catch {
    parsed = null;
  }
  const problems = parsed ? shapeProblems(parsed) : ["no result line"];
  if (problems.length || (r.code !== EXIT_MET && r.code !== EXIT_MISSED)) {
    process.stderr.write(`${b.name}: the bench did not finish (exit ${r.code}; ${problems.join("; ") || "no problem in its line"})\n`);
    failed = true;
    continue;
  }
  console.log(JSON.stringify(parsed));
  if (!parsed!.met) missed = true;
}
process.exit(failed ? EXIT_FAILED : missed ? EXIT_MISSED : EXIT_MET);
