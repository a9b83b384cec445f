import type { CompiledQuery, Compilable } from "kysely";
import type SQLite from "better-sqlite3";
import type { DB } from "./index";
import { sqliteReaderOf } from "./reader";
import { getOrCreateLru, setBounded } from "../core/bounded";

/**
 * Kysely builds and compiles every query anew: for the switcher's kids list (four joins and a union) that was
 * 0.15–0.3 ms of CPU, on every guarded page and every page-cache hit, more than running it on SQLite. A query
 * whose SQL and parameters are a function of `key` alone is compiled once per database and key, then run as
 * compiled. The key must name every input of `build` (ids, e-mail, sizes); the cache is bounded (oldest out).
 */
const MAX_PER_DB = 2_000;
const compiled = new WeakMap<DB, Map<string, CompiledQuery>>();

export async function executeCompiledOnce<R>(db: DB, key: string, build: () => Compilable<R>): Promise<R[]> {
  return (await db.executeQuery(compiledOnce(db, key, build))).rows as R[];
}

/**
 * SQLite: the same query run at once on the database's reader connection (db/index.ts sqliteReaderOf), which sees
 * only committed rows and is never inside another request's transaction. Undefined where there is no reader
 * (PostgreSQL, ":memory:"): the caller then uses executeCompiledOnce. Kysely's SQLite driver hands the rows over as
 * better-sqlite3 gives them, so the rows are the same as through Kysely.
 */
export function readCompiledNow<R>(db: DB, key: string, build: () => Compilable<R>): R[] | undefined {
  const reader = sqliteReaderOf(db);
  if (!reader) return undefined;
  const query = compiledOnce(db, key, build);
  let statements = readerStatements.get(reader);
  if (!statements) readerStatements.set(reader, (statements = new Map()));
  let prepared = statements.get(query.sql);
  if (!prepared) {
    const stmt = reader.prepare(query.sql).raw(true);
    prepared = { stmt, columns: stmt.columns().map((c) => c.name) };
    setBounded(statements, query.sql, prepared, MAX_PER_DB);
  }
  // Rows as arrays, made objects here: better-sqlite3 builds an object a row through V8's API, which took 7 of a
  // session row's 30 µs with the CPU's caches cold. A name twice: the last wins, as there.
  const { stmt, columns } = prepared;
  return (stmt.all(query.parameters as unknown[]) as unknown[][]).map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
    return row as R;
  });
}

const readerStatements = new WeakMap<SQLite.Database, Map<string, { stmt: SQLite.Statement; columns: string[] }>>();

function compiledOnce<R>(db: DB, key: string, build: () => Compilable<R>): CompiledQuery<R> {
  let byKey = compiled.get(db);
  if (!byKey) compiled.set(db, (byKey = new Map()));
  return getOrCreateLru(byKey, key, () => build().compile(), MAX_PER_DB) as CompiledQuery<R>;
}

/** Stands for one named value while a template is built (compared by identity: no real value can be mistaken for it). */
class Slot {
  constructor(readonly name: string) {}
}

interface Template {
  compiled: CompiledQuery;
  /** Each parameter: the name of the call's value to put there, or the value the build fixed. */
  parameters: ({ slot: string } | { fixed: unknown })[];
}
const templates = new WeakMap<DB, Map<string, Template>>();

/**
 * A query whose SQL is a function of `shape` alone while its values change from call to call (a phone's serial, a
 * parent's id): built and compiled once per database and shape, with a stand-in for each of `values`, then run with
 * the call's values in the stand-ins' places. Building and compiling a Lock's two statements anew was 5 % of its CPU
 * on the web process (a profile of the mixed-load bench's Locks). `build` may only pass the values it gets on to Kysely as
 * values (`where(col, "=", v.serial)`, `values({...})`), never look at them: every choice that changes the SQL
 * belongs in `shape` (which values are given is part of it). Checked when compiled: each value must reach the
 * parameters.
 */
export async function executeTemplate<R, V extends Record<string, unknown>>(
  db: DB,
  shape: string,
  values: V,
  build: (values: V) => Compilable<R>,
): Promise<R[]> {
  let byShape = templates.get(db);
  if (!byShape) templates.set(db, (byShape = new Map()));
  const names = Object.keys(values);
  const template = getOrCreateLru(byShape, `${shape}\u0000${names.join(",")}`, () => compileTemplate(names, build), MAX_PER_DB);
  const parameters = template.parameters.map((p) => ("slot" in p ? values[p.slot] : p.fixed));
  return (await db.executeQuery({ ...template.compiled, parameters } as CompiledQuery<R>)).rows;
}

function compileTemplate<R, V>(names: string[], build: (values: V) => Compilable<R>): Template {
  const slots = Object.fromEntries(names.map((n) => [n, new Slot(n)]));
  const compiled = build(slots as V).compile();
  const parameters = compiled.parameters.map((p) => (p instanceof Slot ? { slot: p.name } : { fixed: p }));
  const missing = names.filter((n) => !parameters.some((p) => "slot" in p && p.slot === n));
  if (missing.length)
    throw new Error(`executeTemplate: ${missing.join(", ")} did not reach the query's parameters (a value looked at, or not used)`);
  return { compiled, parameters };
}
