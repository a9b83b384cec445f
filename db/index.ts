import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from "kysely";
import pg from "pg";
import { migrations } from "./migrations/index";
import type { Database } from "./schema";

export type DB = Kysely<Database>;
export type Dialect = "sqlite" | "postgres";

export interface DbOptions {
  /** postgres://… for PostgreSQL, otherwise a SQLite file path (":memory:" allowed). */
  url: string;
  poolSize?: number;
}

export function dialectOf(url: string): Dialect {
  return url.startsWith("postgres://") || url.startsWith("postgresql://") ? "postgres" : "sqlite";
}

// PostgreSQL returns int8 (count(*), sum()) as strings; the schema only uses values far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export function createDb({ url, poolSize = 10 }: DbOptions): DB {
  if (dialectOf(url) === "postgres") {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: poolSize }) }),
    });
  }
  if (url !== ":memory:") mkdirSync(path.dirname(path.resolve(url)), { recursive: true });
  const sqlite = new SQLite(url);
  sqlite.pragma("journal_mode = WAL");
  // NORMAL is durable across application crashes (kill -9) in WAL mode; only an OS crash may lose the last commits.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * Kysely prepares every query anew; compiling the SQL in SQLite was ~0.8 ms of each dashboard render. The
 * same query text always yields the same statement, so prepared statements are kept (bounded, LRU-ish).
 * better-sqlite3 runs them synchronously, so one statement is never used by two queries at once.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop !== "prepare") {
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (sql: string) => {
        let stmt = cache.get(sql);
        if (stmt) {
          cache.delete(sql);
        } else {
          stmt = prepare(sql);
          if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        }
        cache.set(sql, stmt);
        return stmt;
      };
    },
  });
}

export function dbDialect(db: DB): Dialect {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres") ? "postgres" : "sqlite";
}

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
