/**
 * Child process of bench/device-fleet.ts: drives phones [from, to) of the fleet (device-service/simulator/fleet.ts
 * MiniPhone), each from one of the given source addresses. Started with its open-files soft limit raised to the
 * hard limit. IPC (one request at a time, each answered once):
 *   {cmd:"connect"} → {connected, ms}   {cmd:"ready"} → {ready: n} once every phone is connected again
 *   {cmd:"states"} → {states: {ready, handshaking, unacknowledged, waiting}} (may be asked while "ready" waits)
 *   {cmd:"echo", n} → {echo: ms[]}      {cmd:"disconnects"} → {disconnects}   {cmd:"stats"} → {executed, duplicates}   {cmd:"close"} → {closed}
 *   {cmd:"report", everyMs, buckets} → {reporting}: every phone uploads usage every `everyMs` (jittered), waiting
 *   for each acknowledgement (a new "report" replaces the loops of the last one); {cmd:"reported"} → {reported:
 *   acknowledged uploads so far}; {cmd:"stop-report"} → {reported} and the uploads stop (bench/mixed-load.ts)
 */
import { MiniPhone } from "../device-service/simulator/fleet";

const [mode, url, fromArg, toArg, addrArg] = process.argv.slice(2);
const from = Number(fromArg);
const to = Number(toArg);
const addresses = addrArg.split(",");
const phones: MiniPhone[] = [];
for (let i = from; i < to; i++)
  phones.push(new MiniPhone(i, { url, bare: mode === "bare", localAddress: addresses[i % addresses.length] }));

const reply = (m: object) => process.send?.(m);
let reporting = false;
/** Each "report" starts a generation; a phone's loop ends when its generation is no longer the current one. */
let generation = 0;
let reported = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One phone's usage uploads: the current hour, `buckets` apps, absolute minutes (≤ 60 for the hour). */
async function report(p: MiniPhone, everyMs: number, buckets: number, gen: number) {
  await sleep(Math.random() * everyMs);
  for (let k = 1; reporting && gen === generation; k++) {
    const hour = new Date().toISOString();
    await p.send("usage", {
      buckets: Array.from({ length: buckets }, (_, b) => ({
        packageName: `com.mixed.app${b}`,
        hour,
        minutes: 1 + (k % Math.max(1, Math.floor(60 / buckets) - 1)),
      })),
    });
    reported++;
    await sleep(everyMs * (0.5 + Math.random()));
  }
}

process.on("message", async (m: { cmd: string; n?: number }) => {
  if (m.cmd === "connect") {
    const t0 = performance.now();
    // In batches, so the accept queue is never the limit.
    for (let i = 0; i < phones.length; i += 250) {
      const batch = phones.slice(i, i + 250);
      const ready = batch.map((p) => p.whenReady());
      batch.forEach((p) => p.connect());
      await Promise.all(ready);
    }
    reply({ connected: phones.length, ms: performance.now() - t0 });
  } else if (m.cmd === "ready") {
    await Promise.all(phones.map((p) => p.whenReady()));
    reply({ ready: phones.length });
  } else if (m.cmd === "echo") {
    const times: number[] = [];
    for (let j = 0; j < (m.n ?? 100); j++) {
      const p = phones[Math.floor(Math.random() * phones.length)];
      const t0 = performance.now();
      await p.echo(`e${j}`);
      times.push(performance.now() - t0);
    }
    reply({ echo: times });
  } else if (m.cmd === "states") {
    // Where the phones are (progress while waiting for "ready"): ready, handshaking, connected but not yet
    // ready (status sent, not acknowledged), waiting to reconnect.
    const states = { ready: 0, handshaking: 0, unacknowledged: 0, waiting: 0 };
    for (const p of phones) {
      if (p.ready) states.ready++;
      else if (p.ws?.readyState === p.ws?.CONNECTING) states.handshaking++;
      else if (p.ws?.readyState === p.ws?.OPEN) states.unacknowledged++;
      else states.waiting++;
    }
    reply({ states });
  } else if (m.cmd === "disconnects") {
    reply({ disconnects: phones.reduce((n, p) => n + p.disconnects, 0) });
  } else if (m.cmd === "stats") {
    reply({ executed: phones.reduce((n, p) => n + p.executed.length, 0), duplicates: phones.reduce((n, p) => n + p.duplicates, 0) });
  } else if (m.cmd === "report") {
    const r = m as unknown as { everyMs: number; buckets: number };
    reporting = true;
    const gen = ++generation;
    for (const p of phones) void report(p, r.everyMs, r.buckets, gen);
    reply({ reporting: phones.length });
  } else if (m.cmd === "reported") {
    reply({ reported });
  } else if (m.cmd === "stop-report") {
    reporting = false;
    reply({ reported });
  } else if (m.cmd === "close") {
    phones.forEach((p) => p.close());
    reply({ closed: phones.length });
  }
});
process.on("disconnect", () => process.exit(0));
reply({ started: true });
