/**
 * The mixed-load bench's baseline for a command (bench/mixed-load.ts): a Lock's chain of hops with none of the
 * product's code, measured in the same run with the parents' own arrival pattern.
 *
 *   server  a bare Express route (its own process, as a web process is): POST /lock runs the Lock post's four
 *           PostgreSQL waves (two statements at once, then three one after the other: `select 1` for the reads,
 *           and for the last, the outbox's insert, a committed insert of one row into a bare table, since a
 *           command is durable before it is sent) and publishes the command on Redis;
 *   relay   a bare Redis subscriber with a bare `ws` server (its own process, as a device process is): each
 *           message goes to the socket of the phone it names;
 *   bench   each parent (this process) holds one `ws` socket as its phone and clicks as in bench/mixed-parents.ts
 *           — two GETs of the bare route and the post, a think pause after each — and the post is timed to the
 *           frame at the socket, as a Lock is.
 *
 * On an idle 2-vCPU VM every hop wakes a process that slept for a while, and such a wake costs more the longer it
 * slept, and a commit waits for the disk's flush, which on these VMs stalls for 100–400 ms a few times a minute
 * even when idle (both measured on the 2-vCPU VMs the benches run on): this is what a chain of that shape costs on the
 * machine, in the minutes the product is measured.
 *
 *   npx tsx bench/bare-chain.ts server|relay    (internal: started by bench/mixed-load.ts, which talks to it over IPC)
 */
import { randomUUID } from "node:crypto";
import express from "express";
import { Redis } from "ioredis";
import pg from "pg";
import { WebSocket, WebSocketServer } from "ws";
import { PG_IDLE_TIMEOUT_MS } from "../db/index";
import { clickRounds } from "./mixed-parents";

const CHANNEL = `bare-chain:${process.env.BARE_CHAIN_ID ?? "bench"}`;

/** The bare web process: POST /lock → the post's PostgreSQL waves, then the publish; GET /healthz. */
async function serverMain(pgUrl: string, redisUrl: string) {
  // The product's pool settings (db/index.ts): idle connections kept as long, so neither side pays new backends.
  const pool = new pg.Pool({ connectionString: pgUrl, max: 10, idleTimeoutMillis: PG_IDLE_TIMEOUT_MS });
  // A lost idle connection is dropped by the pool (the next query opens another); a post that fails answers 500.
  pool.on("error", () => {});
  const redis = new Redis(redisUrl, { lazyConnect: true });
  redis.on("error", (err) => process.stderr.write(`bare chain server: redis: ${err.message}\n`));
  await redis.connect();
  // The outbox's stand-in: the Lock's one durable write, the same size of row, committed on its own (autocommit).
  const outbox = `bare_outbox_${process.pid}`;
  await pool.query(
    `create table if not exists ${outbox} (id text primary key, phone text not null, type text not null, payload text not null, created_at text not null)`,
  );
  const app = express();
  app.get("/healthz", (_req, res) => void res.json({ ok: true }));
  app.post("/lock", async (req, res) => {
    try {
      const phone = String(req.query.phone ?? "");
      await Promise.all([pool.query("select 1"), pool.query("select 1")]);
      for (let i = 0; i < 2; i++) await pool.query("select 1");
      const id = randomUUID();
      await pool.query(`insert into ${outbox} (id, phone, type, payload, created_at) values ($1, $2, 'LOCK', '{}', $3)`, [
        id,
        phone,
        new Date().toISOString(),
      ]);
      await redis.publish(CHANNEL, JSON.stringify({ phone, id }));
      res.redirect(303, "/healthz");
    } catch (err) {
      res.status(500).send(String(err));
    }
  });
  const server = app.listen(0, "127.0.0.1", () => ready("http", server.address()));
}

/** The bare device process: Redis messages to the named phone's socket. */
async function relayMain(redisUrl: string) {
  const sub = new Redis(redisUrl, { lazyConnect: true });
  sub.on("error", (err) => process.stderr.write(`bare chain relay: redis: ${err.message}\n`));
  await sub.connect();
  const phones = new Map<string, WebSocket>();
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  const listening = new Promise<void>((resolve) => wss.once("listening", resolve));
  wss.on("connection", (ws, req) => {
    const phone = new URL(req.url ?? "/", "http://x").searchParams.get("phone") ?? "";
    phones.set(phone, ws);
    ws.on("close", () => phones.delete(phone));
    ws.on("error", () => phones.delete(phone));
  });
  sub.on("message", (_channel, message) => {
    const { phone, id } = JSON.parse(message) as { phone: string; id: string };
    phones.get(phone)?.send(JSON.stringify({ type: "LOCK", id }));
  });
  await sub.subscribe(CHANNEL);
  await listening;
  ready("ws", wss.address());
}

/**
 * Tells the bench where this process answers. The bench stops it once its phase is over; should the bench itself
 * end first (a failed run), the IPC channel closes and this process ends with it instead of staying behind.
 */
function ready(scheme: "http" | "ws", address: ReturnType<WebSocketServer["address"]> | null) {
  process.send?.({ ready: true, url: `${scheme}://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` });
  process.on("disconnect", () => process.exit(0));
}

export interface BareRound {
  /** Post → frame at the phone's socket, ms. */
  commands: number[];
  failures: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `parents` phones on the relay; each clicks for `seconds` as a parent of the mixed load does. */
export async function bareChainLoop(o: {
  serverUrl: string;
  relayUrl: string;
  parents: number;
  seconds: number;
  thinkMs: number;
}): Promise<BareRound> {
  const r: BareRound = { commands: [], failures: [] };
  const phones = await Promise.all(
    Array.from(
      { length: o.parents },
      (_, i) =>
        new Promise<{ ws: WebSocket; name: string; next: ((id: string) => void) | null }>((resolve, reject) => {
          const name = `bare-${i}`;
          const ws = new WebSocket(`${o.relayUrl}/?phone=${name}`);
          const phone = { ws, name, next: null as ((id: string) => void) | null };
          ws.on("message", (data) => phone.next?.(String(data)));
          ws.once("open", () => resolve(phone));
          // Before it opens, the loop fails at once; after, a lost socket shows as commands that never arrive.
          ws.on("error", reject);
        }),
    ),
  );
  const get = async () => {
    const res = await fetch(`${o.serverUrl}/healthz`);
    await res.arrayBuffer();
    if (res.status !== 200) r.failures.push(`${res.status} GET /healthz`);
  };
  const lock = async (p: (typeof phones)[number]) => {
    const received = new Promise<void>((resolve) => (p.next = () => resolve()));
    const t0 = performance.now();
    const res = await fetch(`${o.serverUrl}/lock?phone=${p.name}`, { method: "POST", redirect: "manual" });
    await res.arrayBuffer();
    if (res.status !== 303) r.failures.push(`${res.status} POST /lock`);
    else if (await Promise.race([received.then(() => true), sleep(10_000).then(() => false)])) r.commands.push(performance.now() - t0);
    else r.failures.push("the bare LOCK did not reach its socket within 10 s");
    p.next = null;
  };
  try {
    // The parents' own rhythm (bench/mixed-parents.ts): two pages, then the command.
    await clickRounds(phones, o, [get, get, lock]);
  } finally {
    for (const p of phones) p.ws.close();
  }
  return r;
}

const [mode] = process.argv.slice(2);
if (mode === "server") void serverMain(process.env.BARE_PG_URL ?? "", process.env.BARE_REDIS_URL ?? "");
else if (mode === "relay") void relayMain(process.env.BARE_REDIS_URL ?? "");
