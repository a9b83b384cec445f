import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, migrateToLatest, type DB, type Dialect } from "./index";

/** PostgreSQL for tests: CI and developer machines have it on 127.0.0.1:5432 (trust auth, database `test`). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

export interface TestDb {
  db: DB;
  url: string;
  dialect: Dialect;
  destroy(): Promise<void>;
}

/** A short-lived connection to the test server's `test` database; a lost connection fails its query, never the process. */
function adminClient(): pg.Client {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  c.on("error", () => {});
  return c;
}

/**
 * A fresh, migrated database. SQLite: in memory. PostgreSQL: a new database created on the test server and
 * dropped afterwards. A missing PostgreSQL fails the test: it never skips.
 */
export async function createTestDb(dialect: Dialect): Promise<TestDb> {
  if (dialect === "sqlite") {
    const db = createDb({ url: ":memory:" });
    await migrateToLatest(db);
    return { db, url: ":memory:", dialect, destroy: () => db.destroy() };
  }
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = adminClient();
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const db = createDb({ url: url.toString(), poolSize: 5 });
  await migrateToLatest(db);
  return {
    db,
    url: url.toString(),
    dialect,
    async destroy() {
      // Resolves once every pooled connection is closed on the server (db/index.ts), so FORCE kills nothing of ours.
      await db.destroy();
      const c = adminClient();
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
