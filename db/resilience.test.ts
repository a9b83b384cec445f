import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "./index";
import { createTestDb, TEST_DATABASE_URL, type TestDb } from "./index.testing";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "./unavailable";

// PostgreSQL restarts, failovers and pg_terminate_backend, played on a test database (fails when PostgreSQL is missing).
let t: TestDb;
let admin: pg.Client;
beforeAll(async () => {
  t = await createTestDb("postgres");
  await t.db.destroy(); // each test opens its own pool on this database (t.destroy() drops it at the end)
  admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  admin.on("error", () => {});
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await t?.destroy();
});

const dbName = () => new URL(t.url).pathname.slice(1);

/** Terminates every backend of the test database (except the admin's own); returns how many. */
async function terminateAll(): Promise<number> {
  const r = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [
    dbName(),
  ]);
  return r.rowCount ?? 0;
}

async function backends(): Promise<number> {
  const r = await admin.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [dbName()],
  );
  return r.rows[0]!.n;
}

/** A pool whose lost connections are collected; `lost(n)` resolves once n have been reported. */
function watchedDb(poolSize = 3) {
  const errors: Error[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const db = createDb({
    url: t.url,
    poolSize,
    onError: (err) => {
      errors.push(err);
      for (const w of waiters.filter((w) => errors.length >= w.n)) w.resolve();
    },
  });
  const lost = (n: number) => new Promise<void>((resolve) => (errors.length >= n ? resolve() : waiters.push({ n, resolve })));
  return { db, errors, lost };
}

/** Opens `n` pooled connections at once (each held until all are open), then returns them to the pool idle. */
async function warm(db: DB, n: number): Promise<void> {
  await db.transaction().execute(async (a) => {
    await sql`select 1`.execute(a);
    if (n > 1)
      await db.transaction().execute(async (b) => {
        await sql`select 1`.execute(b);
        if (n > 2) await sql`select 1`.execute(db);
      });
  });
}

describe("PostgreSQL connections terminated by the server", () => {
  it("idle pooled connections killed by the server are reported once each, and the pool reconnects", async () => {
    const { db, errors, lost } = watchedDb(3);
    try {
      await warm(db, 3);
      expect(await backends()).toBe(3);
      expect(await terminateAll()).toBe(3);
      await lost(3);
      expect(errors.map((e) => e.message)).toEqual(Array(3).fill("terminating connection due to administrator command"));
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
      expect(errors).toHaveLength(3); // once per connection, never twice
    } finally {
      await db.destroy();
    }
  });

  it("a connection killed in the middle of a transaction fails that transaction only", async () => {
    const { db, lost } = watchedDb(2);
    try {
      const failed = await db
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          expect(await terminateAll()).toBe(1);
          await lost(1); // the checked-out client's error event: no listener used to mean an uncaught exception
          await sql`select 1`.execute(trx);
        })
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(isDatabaseUnavailable(failed)).toBe(true);
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it("destroy() resolves only once every connection is closed on the server", async () => {
    const { db } = watchedDb(3);
    await warm(db, 3);
    expect(await backends()).toBe(3);
    await db.destroy();
    // Nothing is left for DROP DATABASE … WITH (FORCE) to kill (that used to surface as an uncaught error).
    expect(await backends()).toBe(0);
  });

  it("a refused connection is reported as the database being unavailable, not thrown from the pool", async () => {
    const url = new URL(t.url);
    url.port = "1"; // nothing listens there
    const db = createDb({ url: url.toString(), onError: () => {} });
    try {
      const err = await sql`select 1`.execute(db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});

describe("isDatabaseUnavailable", () => {
  const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });
  it.each([
    ["connection refused", withCode("ECONNREFUSED"), true],
    ["connection reset", withCode("ECONNRESET"), true],
    ["admin shutdown (pg_terminate_backend, restart)", withCode("57P01"), true],
    ["crash shutdown", withCode("57P02"), true],
    ["the database system is starting up", withCode("57P03"), true],
    ["too many connections", withCode("53300"), true],
    ["connection exception class 08", withCode("08006"), true],
    ["a dropped socket", new Error("Connection terminated unexpectedly"), true],
    ["a pool connect timeout", new Error("timeout exceeded when trying to connect"), true],
    ["SQLite busy", withCode("SQLITE_BUSY"), true],
    ["wrapped as a cause", new Error("outer", { cause: withCode("ECONNREFUSED") }), true],
    ["the device service's own answer", withCode("SERVICE_UNAVAILABLE"), true],
    ["a unique violation", withCode("23505"), false],
    ["a syntax error", withCode("42601"), false],
    ["a plain error", new Error("boom"), false],
    ["not an error", "ECONNREFUSED", false],
    ["nothing", undefined, false],
  ])("%s → %s", (_name, err, expected) => {
    expect(isDatabaseUnavailable(err)).toBe(expected);
  });

  it("has a plain message", () => {
    expect(DATABASE_UNAVAILABLE_MESSAGE).toBe("The service is briefly unavailable. Please try again in a minute.");
  });
});
