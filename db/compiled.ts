import type { CompiledQuery, Compilable } from "kysely";
import type { DB } from "./index";

/**
 * Kysely builds and compiles every query anew: for the switcher's kids list (four joins and a union) that was
 * 0.15–0.3 ms of CPU, on every guarded page and every page-cache hit, more than running it on SQLite. A query
 * whose SQL and parameters are a function of `key` alone is compiled once per database and key, then run as
 * compiled. The key must name every input of `build` (ids, e-mail, sizes); the cache is bounded (oldest out).
 */
const MAX_PER_DB = 2_000;
const compiled = new WeakMap<DB, Map<string, CompiledQuery>>();

export async function executeCompiledOnce<R>(db: DB, key: string, build: () => Compilable<R>): Promise<R[]> {
  let byKey = compiled.get(db);
  if (!byKey) compiled.set(db, (byKey = new Map()));
  let query = byKey.get(key);
  if (query) {
    byKey.delete(key);
  } else {
    query = build().compile();
    if (byKey.size >= MAX_PER_DB) byKey.delete(byKey.keys().next().value as string);
  }
  byKey.set(key, query);
  return (await db.executeQuery(query)).rows as R[];
}
