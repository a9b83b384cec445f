import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from "kysely";
import pg from "pg";
import { migrations } from "./migrations/index";
import { StatementNames, nameStatements } from "./pg-statements";
import type { Database } from "./schema";
import { registerSqliteReader } from "./reader";
import { getOrCreateLru } from "../core/bounded";

export type DB = Kysely<Database>;
export type { Dialect } from "./dialect";
import type { Dialect } from "./dialect";

export interface DbOptions {
  /** postgres://… for PostgreSQL, otherwise a SQLite file path (":memory:" allowed). */
  url: string;
  poolSize?: number;
  /**
   * A pooled PostgreSQL connection was lost (restart, failover, pg_terminate_backend, network): called once per
   * connection; the pool drops it and opens a new one on the next query. Default: one line on stderr.
   */
  onError?: (err: Error) => void;
  /**
   * PostgreSQL: run the queries that repeat as named (prepared) statements, parsed once per connection and planned
   * by PostgreSQL's plan cache (db/pg-statements.ts). Default on; PG_NAMED_STATEMENTS=false turns it off, e.g.
   * behind a PgBouncer older than 1.21 in transaction mode, which cannot route them.
   */
  namedStatements?: boolean;
}

/** PostgreSQL: how long a query waits for a new connection before failing (the request then answers 503). */
export const PG_CONNECT_TIMEOUT_MS = 5_000;

/**
 * PostgreSQL: how long a connection may sit idle in the pool before it is closed. pg's default is 10 s, and under a
 * parent's pace (a click every few seconds) the pool's second and third connections were closed between bursts and
 * opened again in the next one: a new backend costs its connection (3–7 ms) and then a few ms more on each of its
 * first statements (its catalogue caches cold, each named statement parsed and planned again) — the slowest Lock
 * posts of the mixed bench were those. Five minutes keeps a process's connections
 * warm while it is in use. (pg's `allowExitOnIdle` is not used: a device process awaiting its start-up with only
 * idle connections open exited.) Every pool is ended with its database (`db.destroy()`).
 */
export const PG_IDLE_TIMEOUT_MS = 5 * 60_000;

export function dialectOf(url: string): Dialect {
  return url.startsWith("postgres://") || url.startsWith("postgresql://") ? "postgres" : "sqlite";
}

// PostgreSQL returns int8 (count(*), sum()) as strings; the schema only uses values far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export function createDb({
  url,
  poolSize = 10,
  onError = (err) => console.error(`[db] connection lost: ${err.message}`),
  namedStatements = true,
}: DbOptions): DB {
  if (dialectOf(url) === "postgres") {
    return new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: createPgPool(url, poolSize, onError, namedStatements ? new StatementNames() : null),
      }),
    });
  }
  if (url !== ":memory:") {
    mkdirSync(path.dirname(path.resolve(url)), { recursive: true, mode: 0o700 });
    privateFile(url);
  }
  const sqlite = new SQLite(url);
  sqlite.pragma("journal_mode = WAL");
  // SQLite makes the -wal and -shm files with the database file's mode; ones left by an older version are tightened.
  if (url !== ":memory:") for (const f of [`${url}-wal`, `${url}-shm`]) privateFile(f, false);
  // NORMAL is durable across application crashes (kill -9) in WAL mode; only an OS crash may lose the last commits.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // Sorters, DISTINCT, GROUP BY and IN (subquery) build temporary b-trees. With the default (temporary files) the
  // dashboard's kids list took 175–300 µs in some processes and 21 µs in others, on the same file; in memory it
  // took 21 µs every time. Our temporary tables are small (a page of rows).
  sqlite.pragma("temp_store = MEMORY");
  let reader: SQLite.Database | null = null;
  const openReader = url === ":memory:" ? null : () => (reader ??= openSqliteReader(url));
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite, 500, () => reader?.close()) }),
  });
  sqliteHandles.set(db, sqlite);
  if (openReader) registerSqliteReader(db, openReader);
  return db;
}

const sqliteHandles = new WeakMap<DB, SQLite.Database>();

/**
 * The database file readable by the service's user only (0600): made so before SQLite opens it (SQLite then makes its
 * -wal and -shm files with the same mode), and tightened if it exists. `create` false: only an existing file.
 */
function privateFile(file: string, create = true): void {
  if (create && !existsSync(file)) closeSync(openSync(file, "a", 0o600));
  try {
    chmodSync(file, 0o600);
  } catch {
    /* gone meanwhile, or not this user's to change: SQLite opens it as it is */
  }
}

function openSqliteReader(url: string): SQLite.Database {
  const reader = new SQLite(url);
  reader.pragma("query_only = ON");
  reader.pragma("busy_timeout = 5000");
  reader.pragma("temp_store = MEMORY");
  return reader;
}

/**
 * The better-sqlite3 connection behind a SQLite `DB` (undefined on PostgreSQL). For hot paths that run many
 * small prepared statements (usage ingest): use it only INSIDE a Kysely transaction of that `db`, which holds
 * the connection, so the statements belong to that transaction and never interleave with another one.
 */
export function sqliteHandleOf(db: DB): SQLite.Database | undefined {
  return sqliteHandles.get(db);
}

/**
 * A pg.Pool that survives the server going away. node-postgres emits 'error' on a client whose connection
 * dies (FATAL 57P01 from a restart or pg_terminate_backend, then the socket's end) and re-emits an idle
 * client's error on the pool; with no listener either one is an uncaught exception and the process exits.
 * Every client gets a listener that reports its first error; the pool's own is silent (already reported).
 * A client that errored is not queryable, so the pool discards it on release and connects anew.
 *
 * end() also waits until every connection is closed on the server: pg-pool resolves as soon as it has asked
 * its clients to end, and a DROP DATABASE … WITH (FORCE) right after it (db/testing.ts) used to terminate a
 * backend still reading its Terminate message: an error on a pool without a listener.
 */
function createPgPool(url: string, max: number, onError: (err: Error) => void, names: StatementNames | null): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: PG_IDLE_TIMEOUT_MS,
    keepAlive: true,
  });
  const open = new Set<pg.PoolClient>();
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    open.add(client);
    if (names) nameStatements(client, names);
    client.once("end", () => open.delete(client));
    let reported = false;
    client.on("error", (err) => {
      if (reported) return;
      reported = true;
      onError(err);
    });
  });
  const end = pool.end.bind(pool);
  pool.end = (async () => {
    const closed = [...open].map((c) => new Promise<void>((resolve) => c.once("end", () => resolve())));
    await end();
    // Bounded: a server that stopped answering never closes its side.
    await Promise.race([Promise.all(closed), new Promise<void>((resolve) => setTimeout(resolve, PG_CONNECT_TIMEOUT_MS).unref())]);
  }) as typeof pool.end;
  return pool;
}

/**
 * Kysely prepares every query anew; compiling the SQL in SQLite was ~0.8 ms of each dashboard render. The
 * same query text always yields the same statement, so prepared statements are kept (bounded, LRU-ish).
 * better-sqlite3 runs them synchronously, so one statement is never used by two queries at once.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 500, onClose?: () => void): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === "close" && onClose) {
        return () => {
          onClose();
          return target.close();
        };
      }
      if (prop !== "prepare") {
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (sql: string) => {
        return getOrCreateLru(cache, sql, () => prepare(sql), max);
      };
    },
  });
}

export { dbDialect } from "./dialect";
export { sqliteReaderOf } from "./reader";

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function migrateDown(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider });
  for (;;) {
    const { error, results } = await migrator.migrateDown();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    if (!results || results.length === 0) return;
  }
}

export type { Database } from "./schema";
