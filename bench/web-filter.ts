/**
 * The web filter's resolver (issue 54 item 6): cached answers over DoT and DoH through the real resolver
 * (createResolver with the database policy: 10,000 kids' filter ids, each blocking categories with SafeSearch on, and
 * 1,000,000 listed domains in the index), beside a bare responder on the same transport in the same run:
 *  - DoT: the same TLS certificate and the same framing code (web-filter/stream-framing.ts), answering every query
 *    with one fixed answer (its id copied in), no policy, no cache;
 *  - DoH: node:http on the same port shape (`/dns-query/<id>`, POST application/dns-message, the body read the same
 *    way), the same fixed answer. The filter's DoH is `createDohHandler` on node:http (the web process mounts it on
 *    Express; Express's own cost is the kids-device and page benches' business).
 *
 * Measured:
 *  - throughput: `--connections` persistent DoT connections (one kid each, `--depth` queries in flight on each) and as
 *    many HTTP keep-alive sockets (one request at a time each), for `--seconds`; answers per second, filter ÷ bare;
 *  - latency: one connection, one query at a time (`--latency-queries`), p50/p99; added p99 = filter − bare;
 *  - lookup p99: the index walk alone (`lookupCategories`, half listed names, half not), as bench/web-filter-lists.ts;
 *  - the lists' memory (heap + array buffers after a full GC) and the policy's (10,000 kids in memory);
 *  - what a cached answer costs through `Resolver.answer` alone, without a transport (µs, mean).
 * The load runs on a worker thread (its own event loop; the servers keep this one), so the two share the machine's
 * cores as a phone fleet and a server do not: a run on a 2-core machine measures both ends.
 *
 *   npx tsx bench/web-filter.ts                          # 1,000,000 domains, 10,000 kids
 *   npx tsx bench/web-filter.ts --seconds 10 --connections 16
 *   --json: only the result line (bench/report.ts); --smoke: a tiny run that only checks the bench works
 *
 * Targets (issue 54): cached answers per second ≥ 0.5× the bare responder on each transport; added p99 of a cached
 * answer ≤ 2 ms; lookup p99 ≤ 0.05 ms; the lists in memory ≤ 150 MB.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { Worker } from "node:worker_threads";
import dnsPacket from "dns-packet";
import { createDb, migrateToLatest, type DB } from "../db/index";
import { listWebFilterCategories } from "../db/queries/web-filter/categories";
import { ensureFilterIdsForAllKids } from "../db/queries/web-filter/settings";
import { createResolver } from "../web-filter/create-resolver";
import { devCertificate } from "../web-filter/dev-cert";
import { syncCuratedLists } from "../web-filter/lists/curated-sync";
import { loadDomainIndex } from "../web-filter/lists/load";
import { createDbFilterPolicy } from "../web-filter/policy/db-policy";
import { a, startFakeUpstream } from "../web-filter/resolver/upstream/fake-upstream.testing";
import { createDohHandler } from "../web-filter/servers/doh";
import { startDotServer } from "../web-filter/servers/dot";
import { webFilterSettings } from "../web-filter/settings";
import { frame, MessageReader } from "../web-filter/stream-framing";
import { benchResult, EXIT_FAILED, EXIT_USAGE, reporter } from "./report";
import { domainMaker, LISTED_SEED, lookupNames, MB, memoryInUse, timeEach } from "./web-filter-domains";

const USAGE = `Usage: npx tsx bench/web-filter.ts [--domains N] [--kids N] [--seconds S] [--connections C] [--depth D]
                                  [--latency-queries N] [--json] [--smoke]

  --domains N           listed domains in the index (default 1000000; --smoke: 20000)
  --kids N              kids, each with a filter id and blocked categories (default 10000; --smoke: 200)
  --seconds S           each throughput run (default 5; --smoke: 0.5)
  --connections C       persistent DoT connections and HTTP keep-alive sockets (default 8)
  --depth D             DoT queries in flight per connection (default 4)
  --latency-queries N   queries one at a time for the latency figures (default 3000; --smoke: 100)
  --json                print only the result line
  --smoke               a small run that only checks the bench works (no measurement)
  -h, --help            this text`;

const FLAGS_WITH_VALUE = ["--domains", "--kids", "--seconds", "--connections", "--depth", "--latency-queries"];
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
for (let i = 0; i < args.length; i++) {
  if (FLAGS_WITH_VALUE.includes(args[i])) i++;
  else if (args[i] !== "--json" && args[i] !== "--smoke") {
    process.stderr.write(`Unknown option '${args[i]}'. See --help.\n`);
    process.exit(EXIT_USAGE);
  }
}
const SMOKE = args.includes("--smoke");
function option(name: string, normal: number, smoke: number, min: number, whole = true): number {
  const given = args.includes(name) ? Number(args[args.indexOf(name) + 1]) : SMOKE ? smoke : normal;
  if (!Number.isFinite(given) || given < min || (whole && !Number.isInteger(given))) {
    process.stderr.write(`${name} takes a ${whole ? "whole " : ""}number ≥ ${min}.\n`);
    process.exit(EXIT_USAGE);
  }
  return given;
}
const DOMAINS = option("--domains", 1_000_000, 20_000, 1_000);
const KIDS = option("--kids", 10_000, 200, 1);
const SECONDS = option("--seconds", 5, 0.5, 0.1, false);
const CONNECTIONS = option("--connections", 8, 4, 1);
const DEPTH = option("--depth", 4, 2, 1);
const LATENCY_QUERIES = option("--latency-queries", 3_000, 100, 10);
const LOOKUPS = SMOKE ? 5_000 : 200_000;
/** The names asked (allowed, answered by the upstream once, then from the cache). */
const NAMES = 1_000;
const FILTER_DOMAIN = "dns.bench.test";
/** Bare and filter take turns this many times per transport. */
const ROUNDS = SMOKE ? 1 : 4;
const out = reporter(args.includes("--json"));

/**
 * The load, on a worker thread: DoT (persistent TLS connections, `depth` queries in flight each, answers matched by
 * id) or DoH (POST on keep-alive sockets, one request at a time each). `seconds`: a throughput run; else `count`
 * queries one at a time on one connection. Answers that are not NOERROR with an answer are counted as errors.
 */
const LOAD = `
const { parentPort, workerData: w } = require("node:worker_threads");
const tls = require("node:tls");
const http = require("node:http");
const queries = w.queries.map((q) => Buffer.from(q));
const latencies = [];
let answered = 0, errors = 0, next = 0, stopped = false;
const started = process.hrtime.bigint();
const deadline = w.seconds ? Date.now() + w.seconds * 1000 : Infinity;
const more = () => !stopped && (w.seconds ? Date.now() < deadline : next < w.count);
const check = (m) => { if (m.length < 12 || (m[3] & 15) !== 0 || m.readUInt16BE(6) === 0) errors++; };
const finish = () => { if (stopped) return; stopped = true; parentPort.postMessage({ answered, errors, latencies, seconds: Number(process.hrtime.bigint() - started) / 1e9 }); setImmediate(() => process.exit(0)); };
const take = () => { const q = Buffer.from(queries[next++ % queries.length]); return q; };

function dot(servername, depth, done) {
  const socket = tls.connect({ host: "127.0.0.1", port: w.port, servername, ca: w.ca });
  const sent = new Map();
  let id = 0, pending = Buffer.alloc(0);
  const send = () => {
    const q = take();
    id = (id + 1) & 0xffff;
    q.writeUInt16BE(id, 0);
    sent.set(id, process.hrtime.bigint());
    const f = Buffer.allocUnsafe(q.length + 2);
    f.writeUInt16BE(q.length, 0);
    q.copy(f, 2);
    socket.write(f);
  };
  socket.once("secureConnect", () => { for (let i = 0; i < depth && more(); i++) send(); });
  socket.on("data", (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
      const m = pending.subarray(2, 2 + pending.readUInt16BE(0));
      pending = pending.subarray(2 + m.length);
      const t = sent.get(m.readUInt16BE(0));
      sent.delete(m.readUInt16BE(0));
      if (t !== undefined) { latencies.push(Number(process.hrtime.bigint() - t) / 1e6); answered++; check(m); }
      if (more()) send();
      else if (sent.size === 0) { socket.destroy(); done(); return; }
    }
  });
  socket.on("error", (err) => { errors++; done(err); });
}

function doh(agent, filterId, done) {
  if (!more()) return done();
  const q = take();
  const t = process.hrtime.bigint();
  const req = http.request({ host: "127.0.0.1", port: w.port, method: "POST", path: "/dns-query/" + filterId, agent,
    headers: { "content-type": "application/dns-message", "content-length": q.length, accept: "application/dns-message" } }, (res) => {
    const chunks = [];
    res.on("data", (c) => chunks.push(c));
    res.on("end", () => {
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      answered++;
      if (res.statusCode !== 200) errors++; else check(Buffer.concat(chunks));
      doh(agent, filterId, done);
    });
  });
  req.setNoDelay(true);
  req.on("error", (err) => { errors++; done(err); });
  req.end(q);
}

const clients = w.seconds ? w.connections : 1;
let left = clients;
const one = () => { if (--left === 0) finish(); };
if (w.kind === "dot") for (let i = 0; i < clients; i++) dot(w.filterIds[i % w.filterIds.length] + "." + w.domain, w.seconds ? w.depth : 1, one);
else {
  // One keep-alive socket per client: a request waits for its socket's answer, never opens another connection.
  for (let i = 0; i < clients; i++) doh(new http.Agent({ keepAlive: true, maxSockets: 1 }), w.filterIds[i % w.filterIds.length], one);
}
`;

interface LoadResult {
  answered: number;
  errors: number;
  latencies: number[];
  /** From the load's start on its thread (connections included) to its last answer. */
  seconds: number;
}

function load(o: {
  kind: "dot" | "doh";
  port: number;
  ca: Buffer;
  queries: Buffer[];
  filterIds: string[];
  seconds?: number;
  count?: number;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD, {
      eval: true,
      workerData: {
        kind: o.kind,
        port: o.port,
        ca: o.ca.toString(),
        domain: FILTER_DOMAIN,
        queries: o.queries.map((q) => new Uint8Array(q)),
        filterIds: o.filterIds,
        seconds: o.seconds ?? 0,
        count: o.count ?? 0,
        connections: CONNECTIONS,
        depth: DEPTH,
      },
    });
    worker.once("message", (r: LoadResult) => resolve(r));
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`the load exited with ${code}`)));
  });
}

function quantiles(latencies: number[]): { p50: number; p99: number } {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: at(50), p99: at(99) };
}

/** The bare responder's one answer: NOERROR, one A record of the size the resolver's cached answers have. */
function fixedAnswer(): Buffer {
  return dnsPacket.encode({
    type: "response",
    id: 0,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE,
    questions: [{ type: "A", name: "bakelino-toma42.com" }],
    answers: [a("bakelino-toma42.com", "192.0.2.1", 3600)],
  });
}

/** DoT without policy or cache: the same certificate and framing, every query answered with the fixed answer. */
function startBareDot(cert: { cert: Buffer; key: Buffer }, answer: Buffer): Promise<{ port: number; close(): Promise<void> }> {
  const server = tls.createServer({ cert: cert.cert, key: cert.key });
  const sockets = new Set<tls.TLSSocket>();
  server.on("secureConnection", (socket: tls.TLSSocket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const reader = new MessageReader();
    socket.on("data", (chunk: Buffer) => {
      for (const m of reader.push(chunk, 4096)) {
        const reply = Buffer.from(answer);
        m.copy(reply, 0, 0, 2);
        socket.write(frame(reply));
      }
    });
  });
  return listening(server, () => sockets.forEach((s) => s.destroy()));
}

/** DoH without policy or cache: the body read as createDohHandler reads it, the fixed answer with the same headers. */
function startBareDoh(answer: Buffer) {
  const server: ReturnType<typeof createServer> = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
      const query = Buffer.concat(chunks);
      const reply = Buffer.from(answer);
      query.copy(reply, 0, 0, 2);
      res.writeHead(200, { "content-type": "application/dns-message", "content-length": reply.length, "cache-control": "max-age=3600" });
      res.end(reply);
    })();
  });
  return listening(server, () => server.closeAllConnections());
}

/** The filter's DoH: createDohHandler on node:http, the filter id from the path as Express would give it. */
function startFilterDoh(handler: ReturnType<typeof createDohHandler>) {
  const server = createServer((req, res) => {
    const m = /^\/dns-query\/([^/?]+)/.exec(req.url ?? "");
    if (!m) return void res.writeHead(404).end();
    handler(Object.assign(req, { params: { filterId: m[1] } }), res);
  });
  return listening(server, () => server.closeAllConnections());
}

function listening(
  server: tls.Server | ReturnType<typeof createServer>,
  drop: () => void,
): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            drop();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** KIDS kids (two per parent, in four time zones), each with a filter id, two categories blocked and SafeSearch on. */
async function seedKids(db: DB): Promise<void> {
  const ts = new Date().toISOString();
  const zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"];
  const pad = (i: number) => String(i).padStart(6, "0");
  for (let from = 0; from < KIDS; from += 400) {
    const ids = Array.from({ length: Math.min(400, KIDS - from) }, (_, i) => from + i);
    const parents = [...new Set(ids.map((i) => Math.floor(i / 2)))];
    await db
      .insertInto("parents")
      .values(
        parents.map((p) => ({
          id: `wp${pad(p)}`,
          email: `wf-bench-${p}@example.com`,
          name: `Parent ${p}`,
          password_hash: null,
          role: "parent",
          use_default_password: 0,
          email_verified_at: ts,
          created_at: ts,
          updated_at: ts,
          time_zone: zones[p % zones.length],
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db
      .insertInto("kid_profiles")
      .values(
        ids.map((i) => ({
          id: `wk${pad(i)}`,
          parent_id: `wp${pad(Math.floor(i / 2))}`,
          name: `Kid ${i}`,
          birth_month: 1,
          birth_year: 2015,
          picture_mime: null,
          picture: null,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
  }
  await ensureFilterIdsForAllKids(db);
  const kids = await db.selectFrom("web_filter_settings").select("profile_id").execute();
  for (let i = 0; i < kids.length; i += 400) {
    const part = kids.slice(i, i + 400);
    await db
      .insertInto("web_filter_blocked_categories")
      .values(
        part.flatMap((k) =>
          ["adult", "gambling"].map((category_id) => ({ profile_id: k.profile_id, category_id, schedule_id: null, updated_at: ts })),
        ),
      )
      .execute();
  }
  await db.updateTable("web_filter_settings").set({ safe_search: 1, youtube_mode: "moderate" }).execute();
}

async function main(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "web-filter-bench-"));
  const db = createDb({ url: path.join(dir, "bench.sqlite") });
  const closing: (() => Promise<void>)[] = [];
  try {
    await migrateToLatest(db);
    await syncCuratedLists(db);
    const categories = (await listWebFilterCategories(db)).map((c) => c.id);
    if (!categories.includes("adult") || !categories.includes("gambling"))
      throw new Error("the shipped categories changed: adult, gambling");
    out.say(
      `# web filter: ${DOMAINS.toLocaleString("en-US")} listed domains, ${KIDS.toLocaleString("en-US")} kids${SMOKE ? " (smoke: no measurement)" : ""}`,
    );
    await seedKids(db);

    // The lists: the shipped ones from the database, then the generated domains (bench/web-filter-lists.ts
    // measures their import; here only the index matters).
    const beforeLists = memoryInUse();
    const index = await loadDomainIndex(db);
    const next = domainMaker(LISTED_SEED);
    for (let i = 0; i < DOMAINS; i++) index.add(next(), "adult");
    index.compact();
    const listsBytes = memoryInUse() - beforeLists;
    const beforePolicy = memoryInUse();
    const policy = await createDbFilterPolicy(db, index);
    const policyBytes = memoryInUse() - beforePolicy;
    const filterIds = (await db.selectFrom("web_filter_settings").select("filter_id").orderBy("filter_id").execute()).map(
      (r) => r.filter_id,
    );
    out.say(
      `lists ${index.size.toLocaleString("en-US")} domains: ${(listsBytes / MB).toFixed(1)} MB; policy of ${filterIds.length.toLocaleString("en-US")} kids: ${(policyBytes / MB).toFixed(1)} MB`,
    );

    const lookupsTimed = timeEach(lookupNames(LOOKUPS, DOMAINS), (n) => index.lookupCategories(n));

    // The names asked: unlisted (allowed for every kid), answered by a local upstream once, then cached.
    const unlisted = domainMaker(9_054);
    const names = Array.from({ length: NAMES }, (_, i) => (i % 2 ? unlisted() : `www.${unlisted()}`));
    const upstream = await startFakeUpstream(
      Object.fromEntries(names.map((n, i) => [`A ${n}`, { answers: [a(n, `192.0.2.${i % 250}`, 3600)] }])),
    );
    closing.push(() => upstream.close());
    const settings = webFilterSettings({
      DATA_DIR: dir,
      DNS_FILTER_DOMAIN: FILTER_DOMAIN,
      DNS_UPSTREAM: upstream.address,
      DNS_RATE_PER_SECOND: "1000000",
      DNS_RATE_BURST: "1000000",
      DNS_CACHE_MAX_TTL: "3600",
    });
    const resolver = createResolver(settings, policy);
    const queries = names.map((n, i) =>
      dnsPacket.encode({ type: "query", id: i, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: "A", name: n }] }),
    );
    for (const q of queries) {
      const r = await resolver.answer(filterIds[0], q);
      if (r.kind !== "answer" || (r.message[3] & 15) !== 0) throw new Error("the cache could not be warmed: the upstream did not answer");
    }
    const warmed = upstream.total();
    // The resolver alone (no transport): what one cached answer costs this thread, on average.
    const alone = SMOKE ? 2_000 : 50_000;
    const t0 = performance.now();
    for (let i = 0; i < alone; i++) await resolver.answer(filterIds[i % filterIds.length], queries[i % queries.length]);
    const answerUs = ((performance.now() - t0) * 1000) / alone;
    const cert = devCertificate(path.join(dir, "tls"), FILTER_DOMAIN);
    const answer = fixedAnswer();
    const servers = {
      bare: { dot: await startBareDot(cert, answer), doh: await startBareDoh(answer) },
      filter: {
        dot: await startDotServer({ resolver, tls: cert, filterDomain: FILTER_DOMAIN, port: 0, host: "127.0.0.1", maxInFlight: 64 }),
        doh: await startFilterDoh(createDohHandler({ resolver })),
      },
    };
    for (const side of Object.values(servers)) for (const s of Object.values(side)) closing.push(() => s.close());

    const figures: Record<string, number> = {
      domains: index.size,
      kids: filterIds.length,
      lists_mb: listsBytes / MB,
      policy_mb: policyBytes / MB,
      lookup_p50_ms: lookupsTimed.p50,
      lookup_p99_ms: lookupsTimed.p99,
      connections: CONNECTIONS,
      resolver_answer_us: answerUs,
    };
    const baselines: Record<string, number> = {};
    const ratios: Record<string, number> = {};
    let errors = 0;
    for (const kind of ["dot", "doh"] as const) {
      // Bare and filter by turns, in ROUNDS short runs each: a machine that slows down mid-run slows both alike.
      const rate = { bare: { answered: 0, seconds: 0 }, filter: { answered: 0, seconds: 0 } };
      const times = { bare: [] as number[], filter: [] as number[] };
      for (let round = 0; round < ROUNDS; round++)
        for (const side of ["bare", "filter"] as const) {
          const port = servers[side][kind].port;
          const r = await load({ kind, port, ca: cert.cert, queries, filterIds, seconds: SECONDS / ROUNDS });
          rate[side].answered += r.answered;
          rate[side].seconds += r.seconds;
          const l = await load({ kind, port, ca: cert.cert, queries, filterIds, count: Math.ceil(LATENCY_QUERIES / ROUNDS) });
          times[side].push(...l.latencies);
          errors += r.errors + l.errors;
        }
      const qps = { bare: rate.bare.answered / rate.bare.seconds, filter: rate.filter.answered / rate.filter.seconds };
      const latency = { bare: quantiles(times.bare), filter: quantiles(times.filter) };
      figures[`${kind}_qps`] = qps.filter;
      figures[`${kind}_p50_ms`] = latency.filter.p50;
      figures[`${kind}_p99_ms`] = latency.filter.p99;
      figures[`${kind}_added_p99_ms`] = latency.filter.p99 - latency.bare.p99;
      baselines[`${kind}_bare_qps`] = qps.bare;
      baselines[`${kind}_bare_p50_ms`] = latency.bare.p50;
      baselines[`${kind}_bare_p99_ms`] = latency.bare.p99;
      ratios[`${kind}_qps_vs_bare`] = qps.filter / qps.bare;
      out.say(
        `${kind === "dot" ? "DoT" : "DoH"}: ${Math.round(qps.filter).toLocaleString("en-US")} answers/s (bare ${Math.round(qps.bare).toLocaleString("en-US")}, ${(qps.filter / qps.bare).toFixed(2)}×); ` +
          `p50 ${latency.filter.p50.toFixed(3)} ms, p99 ${latency.filter.p99.toFixed(3)} ms (bare ${latency.bare.p50.toFixed(3)} / ${latency.bare.p99.toFixed(3)} ms; added p99 ${(latency.filter.p99 - latency.bare.p99).toFixed(3)} ms)`,
      );
    }
    figures.answer_errors = errors;
    // Every answer came from the cache: the upstream was asked once per name, while warming.
    figures.upstream_queries_during_load = upstream.total() - warmed;
    out.say(
      `lookup p99 ${lookupsTimed.p99.toFixed(4)} ms (index walk alone); a cached answer through the resolver alone ${answerUs.toFixed(1)} µs; answer errors ${errors}`,
    );

    return out.finish(
      benchResult({
        bench: "web-filter",
        figures,
        baselines,
        ratios,
        targets: {
          dot_qps_vs_bare: { min: 0.5 },
          doh_qps_vs_bare: { min: 0.5 },
          dot_added_p99_ms: { max: 2 },
          doh_added_p99_ms: { max: 2 },
          lookup_p99_ms: { max: 0.05 },
          lists_mb: { max: 150 },
          answer_errors: { max: 0 },
          upstream_queries_during_load: { max: 0 },
        },
      }),
    );
  } finally {
    for (const close of closing.reverse()) await close().catch(() => {});
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`web-filter bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(EXIT_FAILED);
  },
);
