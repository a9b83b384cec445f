import type { Kysely } from "kysely";

export type Dialect = "sqlite" | "postgres";

/** Which database a handle talks to. No runtime imports: modules that reach the browser's bundle may use it. */
export function dbDialect(db: Pick<Kysely<object>, "getExecutor">): Dialect {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres") ? "postgres" : "sqlite";
}
