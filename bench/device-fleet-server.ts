/**
 * Child process for bench/device-fleet.ts. Mode "device": the real device service (gateway + runtime) on a
 * file SQLite database with N pre-provisioned phones (credential `<id>.s<i>`). Mode "bare": a bare `ws`
 * server, the RSS baseline. Talks to the parent over IPC: {cmd:"rss"} | {cmd:"rtt", n} | {cmd:"stop"}.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { createDb, migrateToLatest } from "../db/index";
import { nowIso } from "../db/queries/ids";
import { createLocalBus } from "../device-service/bus";
import { issueCommand } from "../device-service/commands/outbox";
import { createDeviceRuntime } from "../device-service/runtime";

const [mode, nArg, dbPath, portArg] = process.argv.slice(2);
const N = Number(nArg);
const send = (m: unknown) => process.send?.(m);
const rss = () => {
  global.gc?.();
  return process.memoryUsage().rss;
};

export function benchCredential(i: number) {
  return `bench${String(i).padStart(6, "0")}.s${i}`;
}

async function main() {
  const server = createServer();
  if (mode === "bare") {
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    server.on("upgrade", (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on("message", (d) => ws.send(d.toString().replace('"child_status"', '"ack"')));
      }),
    );
    await new Promise<void>((r) => server.listen(Number(portArg ?? 0), "127.0.0.1", r));
    send({ ready: true, port: (server.address() as { port: number }).port, rss: rss() });
    process.on("message", (m: { cmd: string }) => {
      if (m.cmd === "rss") send({ rss: rss() });
      if (m.cmd === "stop") process.exit(0);
    });
    return;
  }
  const db = createDb({ url: dbPath });
  await migrateToLatest(db);
  const have = await db.selectFrom("devices").select("id").where("id", "=", "bench000000").executeTakeFirst();
  if (!have) {
    const ts = nowIso();
    await db.insertInto("parents").values({ id: "benchparent", email: "fleet@bench.test", name: "Fleet", password_hash: null, role: "parent", created_at: ts, updated_at: ts }).execute();
    await db.insertInto("kid_profiles").values({ id: "benchkid", parent_id: "benchparent", name: "Kid", birth_month: 1, birth_year: 2015, picture_mime: null, picture: null, created_at: ts, updated_at: ts }).execute();
    const rows = Array.from({ length: N }, (_, i) => ({
      id: `bench${String(i).padStart(6, "0")}`,
      profile_id: "benchkid",
      serial_number: `BENCH-${i}`,
      credential_hash: createHash("sha256").update(benchCredential(i)).digest("hex"),
      created_at: ts,
      updated_at: ts,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insertInto("devices").values(rows.slice(i, i + 500)).execute();
  }
  const bus = createLocalBus();
  const runtime = await createDeviceRuntime({ db, bus, log: () => {} });
  server.on("upgrade", (req, socket, head) => runtime.gateway.handleUpgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(Number(portArg ?? 0), "127.0.0.1", r));
  send({ ready: true, port: (server.address() as { port: number }).port, rss: rss() });

  process.on("message", async (m: { cmd: string; n?: number; connected?: number }) => {
    if (m.cmd === "rss") send({ rss: rss(), sockets: runtime.gateway.count() });
    if (m.cmd === "stop") {
      await runtime.close();
      process.exit(0);
    }
    if (m.cmd === "rtt") {
      // Parent action → phone → acknowledgement stored: issueCommand, then wait for the ack's parent.refresh.
      const times: number[] = [];
      for (let j = 0; j < (m.n ?? 200); j++) {
        const deviceId = `bench${String(Math.floor(Math.random() * (m.connected ?? N))).padStart(6, "0")}`;
        const t0 = performance.now();
        let done!: () => void;
        const acked = new Promise<void>((r) => (done = r));
        let commandId = "";
        const unsub = bus.subscribe((msg) => {
          if (msg.type === "parent.refresh" && msg.reason === "command.acknowledged" && commandId) {
            void db
              .selectFrom("device_commands")
              .select("status")
              .where("id", "=", commandId)
              .executeTakeFirst()
              .then((r) => r?.status === "acknowledged" && done());
          }
        });
        const cmd = await issueCommand(runtime.deps, { deviceId, type: "LOCK" });
        commandId = cmd.id;
        const row = await db.selectFrom("device_commands").select("status").where("id", "=", cmd.id).executeTakeFirst();
        if (row?.status === "acknowledged") done();
        await acked;
        unsub();
        times.push(performance.now() - t0);
      }
      send({ rtt: times });
    }
  });
}

void main();
