import type SQLite from "better-sqlite3";
import type { DB } from "./index";

/*
 * Its own module, without a runtime import of the drivers: db/compiled.ts reads through it, and modules the browser
 * bundle takes in (through db/queries) must not pull better-sqlite3 or pg along.
 */
const sqliteReaders = new WeakMap<DB, () => SQLite.Database>();

/** db/index.ts, for a SQLite file: opens the reader on first use. */
export function registerSqliteReader(db: DB, open: () => SQLite.Database): void {
  sqliteReaders.set(db, open);
}

/**
 * A second connection on a SQLite file (opened on first use, closed with the `db`; undefined on PostgreSQL and for
 * ":memory:"), for reads that run at once, synchronously, outside Kysely: the page cache's session check and kids
 * list on every cached dashboard view (db/compiled.ts readCompiledNow). Kysely's one connection is shared by every
 * request, and a read issued on it between two statements of another request's transaction would see that
 * transaction's uncommitted rows; this one sees only what is committed (WAL: it never blocks the writer). Kysely's
 * promise chain, its connection mutex and the driver around a statement were about 10 % of a cached view's CPU
 * (a CPU profile of cached views). Read-only (query_only): a write through it fails.
 */
export function sqliteReaderOf(db: DB): SQLite.Database | undefined {
  return sqliteReaders.get(db)?.();
}
