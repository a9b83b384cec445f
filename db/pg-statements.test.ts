import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "./index";
import { StatementNames } from "./pg-statements";
import { TEST_DATABASE_URL } from "./index.testing";

describe("StatementNames", () => {
  it("names a text from its second run on, by its hash, and the same text always under the same name", () => {
    const names = new StatementNames();
    expect(names.nameOf("select 1 where $1")).toBeNull();
    const name = names.nameOf("select 1 where $1");
    expect(name).toMatch(/^k_[\w-]{27}$/);
    expect(names.nameOf("select 1 where $1")).toBe(name);
    expect(names.nameOf("select 2 where $1")).toBeNull();
    expect(names.nameOf("select 2 where $1")).not.toBe(name);
  });

  it("never names a batch: a text with more than `maxValues` values", () => {
    const names = new StatementNames(500, 10_000, 3);
    for (let i = 0; i < 3; i++) expect(names.nameOf("in ($1, $2, $3, $4)", 4)).toBeNull();
    names.nameOf("in ($1, $2, $3)", 3);
    expect(names.nameOf("in ($1, $2, $3)", 3)).not.toBeNull();
  });

  it("names at most `max` texts, and keeps a bounded count of the others", () => {
    const names = new StatementNames(2, 3);
    for (const t of ["a", "a", "b", "b", "c", "c"]) names.nameOf(t);
    expect(names.size).toBe(2);
    expect(names.nameOf("c")).toBeNull();
    // Counting forgets the oldest: "x" counted once, then pushed out by three others, is counted anew.
    const counted = new StatementNames(10, 3);
    for (const t of ["x", "p", "q", "r"]) counted.nameOf(t);
    expect(counted.nameOf("x")).toBeNull();
    expect(counted.nameOf("x")).not.toBeNull();
  });

  it("stops naming a text whose statement went stale, and only for that error", () => {
    const names = new StatementNames();
    names.nameOf("q");
    names.nameOf("q");
    names.failed("q", new Error("duplicate key value violates unique constraint"));
    expect(names.nameOf("q")).not.toBeNull();
    names.failed("q", new Error("cached plan must not change result type"));
    expect(names.nameOf("q")).toBeNull();
    expect(names.nameOf("q")).toBeNull();
  });
});

describe("named statements on PostgreSQL", () => {
  const dbName = `t_named_${randomBytes(5).toString("hex")}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    c.on("error", () => {});
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  const url = () => {
    const u = new URL(TEST_DATABASE_URL);
    u.pathname = `/${dbName}`;
    return u.toString();
  };
  // One connection, so the statements a query prepared are visible to the next query.
  const open = (namedStatements?: boolean) =>
    createDb({ url: url(), poolSize: 1, ...(namedStatements === undefined ? {} : { namedStatements }) });
  const prepared = async (db: DB) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'k\\_%'`.execute(db)).rows.map(
      (r) => r.statement,
    );

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const db = open(false);
    await sql`create table t (id integer primary key, a text not null)`.execute(db);
    await sql`insert into t values (1, 'one'), (2, 'two')`.execute(db);
    await db.destroy();
  });
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));

  it("prepares a repeated query once on the connection, and answers it the same", async () => {
    const db = open();
    try {
      const read = (id: number) =>
        db
          .selectFrom("t" as never)
          .select("a" as never)
          .where("id" as never, "=", id as never)
          .execute();
      expect(await read(1)).toEqual([{ a: "one" }]);
      expect(await prepared(db)).toEqual([]);
      expect(await read(2)).toEqual([{ a: "two" }]);
      expect(await read(1)).toEqual([{ a: "one" }]);
      const statements = await prepared(db);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/select "a" from "t" where "id" = \$1/);
      // Inside a transaction too (the same connection, the same name).
      await db.transaction().execute(async (trx) => {
        expect(
          await trx
            .selectFrom("t" as never)
            .select("a" as never)
            .where("id" as never, "=", 2 as never)
            .execute(),
        ).toEqual([{ a: "two" }]);
      });
      // A failing named statement leaves the connection usable.
      const insert = (id: number) =>
        db
          .insertInto("t" as never)
          .values({ id, a: "x" } as never)
          .execute();
      await insert(3);
      await expect(insert(3)).rejects.toThrow(/duplicate key/);
      await expect(insert(3)).rejects.toThrow(/duplicate key/);
      expect(await read(2)).toEqual([{ a: "two" }]);
    } finally {
      await db.destroy();
    }
  });

  it("leaves a query without values on the simple protocol (several statements in one text still run)", async () => {
    const db = open();
    try {
      for (let i = 0; i < 3; i++) await sql.raw("select 1; select 2").execute(db);
      expect(await prepared(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it("turned off, prepares nothing", async () => {
    const db = open(false);
    try {
      for (let i = 0; i < 3; i++)
        await db
          .selectFrom("t" as never)
          .select("a" as never)
          .where("id" as never, "=", 1 as never)
          .execute();
      expect(await prepared(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it("a statement gone stale under a changed table fails once, then the query runs unnamed", async () => {
    const db = open();
    try {
      const all = () =>
        db
          .selectFrom("t" as never)
          .selectAll()
          .where("id" as never, "=", 1 as never)
          .execute();
      await all();
      await all();
      expect(await prepared(db)).toHaveLength(1);
      // Another process migrates the table while this connection holds the statement.
      const other = new pg.Client({ connectionString: url() });
      other.on("error", () => {});
      await other.connect();
      await other.query("ALTER TABLE t ADD COLUMN b text");
      await other.end();
      await expect(all()).rejects.toThrow(/cached plan must not change result type/);
      expect(await all()).toEqual([{ id: 1, a: "one", b: null }]);
      expect(await all()).toEqual([{ id: 1, a: "one", b: null }]);
    } finally {
      await db.destroy();
    }
  });
});
