/**
 * A virtual phone on the command line:
 *   npm run device:sim -- --url http://localhost:3000 --token enr_…  [--serial SIM-0001]
 *   npm run device:sim -- --url http://localhost:3000 --credential <deviceId.secret> --serial SIM-0001
 * Options: --usage-every <s> (send usage for the current hour), --location "lat,lng", --battery <n>,
 *   --path "lat,lng;lat,lng;…" or --move-to "lat,lng" (walk there, reporting the location every --step-every s),
 *   --fail-install com.a=NOT_FOUND,com.b=INSTALLATION_FAILURE_REASON_UNKNOWN:2 (installs that fail: always, or n times).
 * It enrolls (printing its credential for next time), connects, reports, and obeys commands until Ctrl-C.
 *
 * The kid asks the parent (issue 14), then waits for the answer (--wait <s>, default 0: do not wait):
 *   npm run device:sim -- request install org.scratchjr.android --credential … --serial … [--remarks "For school"]
 *   npm run device:sim -- request uninstall com.king.candycrushsaga --credential … --serial …
 *   npm run device:sim -- request extend com.duolingo --minutes 30 --credential … --serial … --wait 600
 *
 * The kid rates an app (1–5 stars, optional review; a later rating of the same app replaces the kid's earlier one):
 *   npm run device:sim -- rate org.khanacademy.android --stars 5 --review "I like the maths" --credential … --serial …
 */
import { parseArgs } from "node:util";
import { parseFailInstalls } from "./installer";
import { SimulatedPhone } from "./phone";
import { parsePath, parsePoint, walkTo } from "./path";
import { rateApp } from "./ratings";
import { REQUEST_KINDS, type RequestKind } from "./requests";

const USAGE = `A virtual kid's phone for the portal's device service.

Usage:
  npm run device:sim -- --url <portal> --token <enrollment token> [--serial SIM-0001]
  npm run device:sim -- --url <portal> --credential <deviceId.secret> --serial <serial number>
  npm run device:sim -- request <install|uninstall|extend> <package> --credential … --serial … [--minutes 30] [--remarks text] [--wait seconds]
  npm run device:sim -- rate <package> --stars <1-5> [--review text] --credential … --serial …

It enrolls with --token (printing its credential for next time), connects, reports, and obeys commands until Ctrl-C.

Options:
  --url <address>            the portal (default http://localhost:3000)
  --token <token>            enrollment token from the dashboard's QR code
  --credential <credential>  the device credential printed at enrollment
  --serial <serial number>   the phone's serial number (default SIM-<random>)
  --usage-every <seconds>    send usage for the current hour this often (default 60; 0: never)
  --location "<lat>,<lng>"   the phone's location (default 51.5014,-0.1419)
  --path "<lat>,<lng>;…"     after connecting, move along these points, reporting the location at each
  --move-to "<lat>,<lng>"    after connecting, walk there from --location in a straight line (steps of 100 m at most)
  --step-every <seconds>     time between two points of --path or --move-to (default 5; locations are limited to 30 a minute)
  --accuracy <metres>        the accuracy reported with each location (default 10; a fix less accurate than a place's radius decides nothing)
  --battery <percent>        battery level (default 80)
  --apps <a,b,c>             installed packages
  --fail-install <pkg=REASON[:n],…>  installs that fail: always, or n times
  --minutes <n>              minutes asked for by "request extend" (default 30)
  --remarks <text>           the kid's note on a request
  --wait <seconds>           wait this long for the parent's answer to a request (default 0)
  --stars <1-5>, --review <text>  the kid's rating for "rate"
  -h, --help                 print this help
`;

const options = {
  help: { type: "boolean", short: "h" },
  url: { type: "string", default: "http://localhost:3000" },
  token: { type: "string" },
  credential: { type: "string" },
  serial: { type: "string", default: `SIM-${Math.random().toString(36).slice(2, 8).toUpperCase()}` },
  "usage-every": { type: "string", default: "60" },
  location: { type: "string", default: "51.5014,-0.1419" },
  path: { type: "string" },
  "move-to": { type: "string" },
  "step-every": { type: "string", default: "5" },
  accuracy: { type: "string", default: "10" },
  battery: { type: "string", default: "80" },
  apps: { type: "string", default: "com.kidsportal.kidsapp,org.khanacademy.android,com.duolingo" },
  minutes: { type: "string", default: "30" },
  remarks: { type: "string" },
  wait: { type: "string", default: "0" },
  stars: { type: "string", default: "5" },
  review: { type: "string" },
  "fail-install": { type: "string", default: "" },
} as const;

function readArgs() {
  try {
    return parseArgs({ allowPositionals: true, options });
  } catch (err) {
    // An unknown or malformed option: say which, show the usage, exit 2 (not a stack trace).
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    process.exit(2);
  }
}

const { values, positionals } = readArgs();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function readMoves() {
  try {
    const start = parsePoint(values.location);
    const points = values.path ? parsePath(values.path) : values["move-to"] ? walkTo(start, parsePoint(values["move-to"])) : [];
    const stepSeconds = Number(values["step-every"]);
    const accuracy = Number(values.accuracy);
    if (!(stepSeconds >= 2 && stepSeconds <= 3_600)) throw new Error("--step-every is a number of seconds from 2 to 3600.");
    if (!(accuracy >= 0 && accuracy <= 100_000)) throw new Error("--accuracy is a number of metres from 0 to 100000.");
    if (values.path && values["move-to"]) throw new Error("Give --path or --move-to, not both.");
    return { start, points, stepMs: stepSeconds * 1000, accuracy };
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    process.exit(2);
  }
}
const moves = readMoves();
const phone = new SimulatedPhone({
  baseUrl: values.url,
  serialNumber: values.serial,
  credential: values.credential,
  status: { batteryPercentage: Number(values.battery) },
  location: moves.start,
  accuracyM: moves.accuracy,
  failInstalls: parseFailInstalls(values["fail-install"]),
  log: (m) => console.error(m),
});
for (const p of values.apps.split(",").filter(Boolean)) phone.state.installed.add(p);
phone.on("command", (c) => console.log(`← command ${c.type} ${c.id} ${JSON.stringify(c.payload).slice(0, 200)}`));
phone.on("connected", () => console.log(`● connected as ${values.serial}`));
phone.on("disconnected", (code: number, reason: string) => console.log(`○ disconnected (${code} ${reason})`));

async function main() {
  if (!phone.credential) {
    if (!values.token) throw new Error("Pass --token <enrollment token> (from the dashboard's QR code) or --credential.");
    const credential = await phone.enroll(values.token);
    console.log(`enrolled; reuse with: --credential ${credential} --serial ${values.serial}`);
  }
  await phone.connect();
  if (positionals[0] === "request") return ask(positionals[1], positionals[2]);
  if (positionals[0] === "rate") return rate(positionals[1]);
  await phone.send("installed_apps", { apps: [...phone.state.installed].map((packageName) => ({ packageName })) });
  const every = Number(values["usage-every"]) * 1000;
  if (every > 0) {
    setInterval(() => {
      const hour = new Date();
      const minutes = Math.min(60, hour.getUTCMinutes());
      hour.setUTCMinutes(0, 0, 0);
      const apps = [...phone.state.installed].filter((p) => !p.startsWith("com.kidsportal"));
      if (!apps.length || !phone.connected) return;
      void phone
        .send("usage", {
          buckets: apps.map((packageName) => ({ packageName, hour: hour.toISOString(), minutes: Math.floor(minutes / apps.length) })),
        })
        .then(() => console.log("→ usage stored"))
        .catch((e: unknown) => console.error(String(e)));
    }, every);
  }
  if (moves.points.length) {
    void phone
      .send("location", phone.locationData())
      .then(() =>
        phone.moveAlong(moves.points, {
          stepMs: moves.stepMs,
          onStep: (p, i) =>
            console.log(`→ location ${i + 1}/${moves.points.length} stored: ${p.latitude.toFixed(6)},${p.longitude.toFixed(6)}`),
        }),
      )
      .catch((e: unknown) => console.error(String(e)));
  }
  const stop = () => void phone.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** `request <install|uninstall|extend> <package>`: sends it, prints when stored, optionally waits for the answer. */
async function ask(kind: string | undefined, packageName: string | undefined) {
  if (!kind || !(kind in REQUEST_KINDS) || !packageName)
    throw new Error("Usage: request <install|uninstall|extend> <package name> [--minutes 30] [--remarks text] [--wait seconds]");
  const id = await phone.requests.ask(kind as RequestKind, packageName, { minutes: Number(values.minutes), remarks: values.remarks });
  console.log(`→ request stored (${REQUEST_KINDS[kind as RequestKind]} ${packageName}, message ${id})`);
  const waitMs = Number(values.wait) * 1000;
  if (waitMs > 0) {
    const answer = await phone.requests.waitForAnswer(id, waitMs);
    console.log(`← ${answer.status}: ${answer.message}`);
  }
  await phone.close();
  process.exit(0);
}

/** `rate <package> --stars n [--review text]`: sends the kid's rating, prints when stored. */
async function rate(packageName: string | undefined) {
  const stars = Number(values.stars);
  if (!packageName || !Number.isInteger(stars) || stars < 1 || stars > 5)
    throw new Error("Usage: rate <package name> --stars <1-5> [--review text]");
  const id = await rateApp(phone, packageName, stars, { review: values.review });
  console.log(`→ rating stored (${stars} stars for ${packageName}, message ${id})`);
  await phone.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
