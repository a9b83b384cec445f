/**
 * A virtual phone on the command line:
 *   npm run device:sim -- --url http://localhost:3000 --token enr_…  [--serial SIM-0001]
 *   npm run device:sim -- --url http://localhost:3000 --credential <deviceId.secret> --serial SIM-0001
 * Options: --usage-every <s> (send usage for the current hour), --location "lat,lng", --battery <n>.
 * It enrolls (printing its credential for next time), connects, reports, and obeys commands until Ctrl-C.
 */
import { parseArgs } from "node:util";
import { SimulatedPhone } from "./phone";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://localhost:3000" },
    token: { type: "string" },
    credential: { type: "string" },
    serial: { type: "string", default: `SIM-${Math.random().toString(36).slice(2, 8).toUpperCase()}` },
    "usage-every": { type: "string", default: "60" },
    location: { type: "string", default: "51.5014,-0.1419" },
    battery: { type: "string", default: "80" },
    apps: { type: "string", default: "com.kidsportal.kidsapp,org.khanacademy.android,com.duolingo" },
  },
});

const [lat, lng] = values.location.split(",").map(Number);
const phone = new SimulatedPhone({
  baseUrl: values.url,
  serialNumber: values.serial,
  credential: values.credential,
  status: { batteryPercentage: Number(values.battery) },
  location: { latitude: lat, longitude: lng },
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
        .send("usage", { buckets: apps.map((packageName) => ({ packageName, hour: hour.toISOString(), minutes: Math.floor(minutes / apps.length) })) })
        .then(() => console.log("→ usage stored"))
        .catch((e: unknown) => console.error(String(e)));
    }, every);
  }
  const stop = () => void phone.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
