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
 * One status report and exit (battery, tampering: every alert can be seen locally):
 *   npm run device:sim -- status --battery 12 --credential … --serial …
 *   npm run device:sim -- status --tamper protection-off|permissions-off|device-admin-removed|clock-moved --credential … --serial …
 *
 * The kid rates an app (1–5 stars, optional review; a later rating of the same app replaces the kid's earlier one):
 *   npm run device:sim -- rate org.khanacademy.android --stars 5 --review "I like the maths" --credential … --serial …
 *
 * Private DNS and the web filter (issue 54 item 4): the phone sets the hostname its policy names and looks names up
 * through it over DNS-over-TLS (--dot, default 127.0.0.1:8853, the development certificate from DATA_DIR):
 *   npm run device:sim -- lookup facebook.com example.com --credential … --serial … [--type AAAA]
 *   npm run device:sim -- --credential … --serial … --private-dns off        (the kid turned it off: the dashboard warns)
 */
import { parseArgs } from "node:util";
import { PRIVATE_DNS_MODES, type PrivateDnsState } from "../../core/private-dns";
import { readFileSync } from "node:fs";
import { parseFailInstalls } from "./installer";
import { SimulatedPhone } from "./phone";
import { parsePath, parsePoint, walkTo } from "./path";
import { rateApp } from "./ratings";
import { devCertificateFile, readDevCertificate, type DotTarget, type LookupType, type PhoneLookup } from "./private-dns";
import { REQUEST_KINDS, type RequestKind } from "./requests";
import { isTamperKind, tamperStatus, TAMPER_KINDS } from "./tamper";

const USAGE = `A virtual kid's phone for the portal's device service.

Usage:
  npm run device:sim -- --url <portal> --token <enrollment token> [--serial SIM-0001]
  npm run device:sim -- --url <portal> --credential <deviceId.secret> --serial <serial number>
  npm run device:sim -- request <install|uninstall|extend> <package> --credential … --serial … [--minutes 30] [--remarks text] [--wait seconds]
  npm run device:sim -- rate <package> --stars <1-5> [--review text] --credential … --serial …
  npm run device:sim -- lookup <domain> [<domain>…] [--type A|AAAA] --credential … --serial …
  npm run device:sim -- status [--battery <percent>] [--tamper <kind>] --credential … --serial …

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
  --battery <percent>        battery level (default 80; under 15 raises the battery alert)
  --tamper <kind>            report tampering: ${TAMPER_KINDS.join(", ")}
                             (protection turned off, kids-app permissions turned off, device admin removed,
                             the phone's clock moved 10 minutes ahead)
  --apps <a,b,c>             installed packages
  --fail-install <pkg=REASON[:n],…>  installs that fail: always, or n times
  --minutes <n>              minutes asked for by "request extend" (default 30)
  --remarks <text>           the kid's note on a request
  --wait <seconds>           wait this long for the parent's answer to a request (default 0)
  --stars <1-5>, --review <text>  the kid's rating for "rate"
  --private-dns <off|automatic|hostname>
                             the kid sets Private DNS on the phone and it stays so (the dashboard warns when it is
                             not the kid's filter); default: the hostname the phone's policy names
  --type <A|AAAA>            the record type "lookup" asks for (default A)
  --dot <host:port>          where the web filter's DNS-over-TLS listens (default 127.0.0.1:8853, npm start's)
  --dot-ca <file>            the certificate to trust (default: the portal's development certificate,
                             $DATA_DIR/web-filter-tls/<filter domain>.crt, DATA_DIR defaulting to data)
  --dot-insecure             accept any certificate (a portal whose development certificate is not readable here)
  -h, --help                 print this help

Lookups go through the filter only while Private DNS names a hostname; "lookup" waits up to --wait seconds
(default 5 for it) for the phone's policy when it has none yet. A blocked name answers 0.0.0.0 (A) or :: (AAAA).
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
  tamper: { type: "string" },
  apps: { type: "string", default: "com.kidsportal.kidsapp,org.khanacademy.android,com.duolingo" },
  minutes: { type: "string", default: "30" },
  remarks: { type: "string" },
  wait: { type: "string", default: "0" },
  stars: { type: "string", default: "5" },
  review: { type: "string" },
  "fail-install": { type: "string", default: "" },
  "private-dns": { type: "string" },
  type: { type: "string", default: "A" },
  dot: { type: "string", default: "127.0.0.1:8853" },
  "dot-ca": { type: "string" },
  "dot-insecure": { type: "boolean", default: false },
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

/** `--private-dns`: off, automatic (Android's Automatic, "opportunistic") or a hostname. */
function privateDnsOption(v: string | undefined): PrivateDnsState | undefined {
  if (v === undefined) return undefined;
  const t = v.trim().toLowerCase();
  if (t === "off") return { mode: "off" };
  if (t === "automatic" || t === "opportunistic") return { mode: "opportunistic" };
  if (!/^[a-z0-9.-]{1,253}$/.test(t) || !t.includes("."))
    exitWith(`--private-dns takes off, automatic or a hostname (${PRIVATE_DNS_MODES.join(", ")}); "${v}" is none of them.`);
  return { mode: "hostname", hostname: t.replace(/\.+$/, "") };
}

function exitWith(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/**
 * Where lookups go: --dot, trusting --dot-ca, else the development certificate the portal made in DATA_DIR for the
 * hostname's domain (read when the first lookup is made, once the hostname is known), else --dot-insecure.
 */
function dotTarget(): DotTarget {
  const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(values.dot);
  if (!m) exitWith(`--dot takes host:port (such as 127.0.0.1:8853); "${values.dot}" is not.`);
  const target: DotTarget = { host: m[1]!, port: Number(m[2]), insecure: values["dot-insecure"] };
  if (values["dot-ca"]) target.ca = readFileSync(values["dot-ca"]);
  return target;
}

const dot = dotTarget();
const dataDir = process.env.DATA_DIR || "data";
/** The development certificate for the hostname in use, unless --dot-ca or --dot-insecure said otherwise. */
function trustFor(hostname: string | undefined) {
  if (!hostname || dot.ca || dot.insecure) return;
  const ca = readDevCertificate(dataDir, hostname);
  if (ca) dot.ca = ca;
  else
    console.error(
      `No development certificate at ${devCertificateFile(dataDir, hostname)}: the filter's certificate is checked against the system's ` +
        "authorities (pass --dot-ca <file>, or --dot-insecure for a development portal elsewhere).",
    );
}

function describeLookup(l: PhoneLookup): string {
  const what = `${l.name} ${l.type}`;
  if (l.via === "network") return `${what}: not filtered (Private DNS is not a hostname; the network's resolver answers)`;
  if (l.error) return `${what} via ${l.hostname}: no answer (${l.error})`;
  if (l.blocked) return `${what} via ${l.hostname}: blocked (${l.addresses.join(", ")})`;
  if (l.rcode !== "NOERROR") return `${what} via ${l.hostname}: ${l.rcode}`;
  return `${what} via ${l.hostname}: ${l.addresses.join(", ") || "no addresses"}`;
}

const battery = Number(values.battery);
if (!Number.isInteger(battery) || battery < 0 || battery > 100) {
  console.error(`--battery takes a whole percent from 0 to 100 (not ${values.battery}).\n\n${USAGE}`);
  process.exit(2);
}
if (values.tamper !== undefined && !isTamperKind(values.tamper)) {
  console.error(`--tamper takes one of: ${TAMPER_KINDS.join(", ")} (not ${values.tamper}).\n\n${USAGE}`);
  process.exit(2);
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
  status: { batteryPercentage: battery, ...(isTamperKind(values.tamper) ? tamperStatus(values.tamper) : {}) },
  location: moves.start,
  accuracyM: moves.accuracy,
  failInstalls: parseFailInstalls(values["fail-install"]),
  log: (m) => console.error(m),
  dot,
  privateDns: privateDnsOption(values["private-dns"]),
});
for (const p of values.apps.split(",").filter(Boolean)) phone.state.installed.add(p);
phone.on("command", (c) => console.log(`← command ${c.type} ${c.id} ${JSON.stringify(c.payload).slice(0, 200)}`));
phone.on("connected", () => console.log(`● connected as ${values.serial}`));
phone.on("disconnected", (code: number, reason: string) => console.log(`○ disconnected (${code} ${reason})`));
phone.on("private-dns", (s: PrivateDnsState) => {
  console.log(`● Private DNS ${s.mode === "hostname" ? s.hostname : s.mode}`);
  trustFor(s.hostname);
});
phone.on("lookup", (l: PhoneLookup) => console.log(`→ lookup ${describeLookup(l)}`));
trustFor(phone.state.privateDns?.hostname);

async function main() {
  if (!phone.credential) {
    if (!values.token) throw new Error("Pass --token <enrollment token> (from the dashboard's QR code) or --credential.");
    const credential = await phone.enroll(values.token);
    console.log(`enrolled; reuse with: --credential ${credential} --serial ${values.serial}`);
  }
  await phone.connect();
  if (positionals[0] === "request") return ask(positionals[1], positionals[2]);
  if (positionals[0] === "rate") return rate(positionals[1]);
  if (positionals[0] === "lookup") return lookup(positionals.slice(1));
  if (positionals[0] === "status") {
    // connect() sent the status (battery, tampering) and waited for it to be stored.
    console.log(`→ status stored (battery ${battery} %${values.tamper ? `, tamper ${values.tamper}` : ""})`);
    await phone.close();
    process.exit(0);
  }
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

/** `lookup <domain>…`: each name through the phone's Private DNS; prints the answers (blocked: 0.0.0.0 or ::). */
async function lookup(names: string[]) {
  const type = values.type.toUpperCase();
  if (!names.length || (type !== "A" && type !== "AAAA")) throw new Error("Usage: lookup <domain> [<domain>…] [--type A|AAAA]");
  if (phone.state.privateDns?.mode !== "hostname") {
    // A phone that connects again gets its policy only when it changed: wait a little for one naming the hostname.
    const waitMs = (Number(values.wait) || 5) * 1000;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, waitMs);
      phone.once("private-dns", () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
  let failed = false;
  for (const name of names) {
    const l = await phone.lookup(name, type as LookupType);
    failed ||= Boolean(l.error);
  }
  await phone.close();
  process.exit(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
