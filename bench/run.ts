/** `npm run bench`: the device fleet benchmarks (sizes via flags; see bench/device-fleet.ts). */
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const r = spawnSync(process.execPath, ["--import", "tsx", "bench/device-fleet.ts", ...args], { stdio: "inherit" });
process.exit(r.status ?? 1);
