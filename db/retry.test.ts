import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRetryableConflict, retryOnConflict } from "./retry";
import { createTestDb, type TestDb } from "./index.testing";

describe("isRetryableConflict", () => {
  it.each([
    [{ code: "40P01" }, true],
    [{ code: "40001" }, true],
    [new Error("wrapped", { cause: { code: "40P01" } }), true],
    [{ code: "23505" }, false],
    [new Error("plain"), false],
    [null, false],
  ])("%o → %s", (err, expected) => {
    expect(isRetryableConflict(err)).toBe(expected);
  });

  it("other errors are thrown at once; a conflict is tried again, at most the given number of times", async () => {
    let calls = 0;
    await expect(
      retryOnConflict(async () => (calls++, Promise.reject(Object.assign(new Error("dup"), { code: "23505" })))),
    ).rejects.toThrow("dup");
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retryOnConflict(async () => (calls++, Promise.reject(Object.assign(new Error("dl"), { code: "40P01" }))), 3),
    ).rejects.toThrow("dl");
    expect(calls).toBe(3);
  });
});

/** A real deadlock on PostgreSQL: two transactions lock two rows in opposite orders; both finish. */
describe("retryOnConflict on postgres", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb("postgres");
    await sql`CREATE TABLE retry_probe (id int PRIMARY KEY, v int NOT NULL)`.execute(t.db);
    await sql`INSERT INTO retry_probe VALUES (1, 0), (2, 0)`.execute(t.db);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("the transaction PostgreSQL ends for a deadlock runs again and both writes land", async () => {
    const firstLocked: Array<() => void> = [];
    const bothLocked = Promise.all([0, 1].map((i) => new Promise<void>((resolve) => (firstLocked[i] = resolve))));
    const attempts = [0, 0];
    const run = (i: number, first: number, second: number) =>
      retryOnConflict(() =>
        t.db.transaction().execute(async (trx) => {
          attempts[i]++;
          await sql`UPDATE retry_probe SET v = v + 1 WHERE id = ${first}`.execute(trx);
          if (attempts[i] === 1) {
            firstLocked[i]!();
            await bothLocked; // each now holds one row and asks for the other's
          }
          await sql`UPDATE retry_probe SET v = v + 1 WHERE id = ${second}`.execute(trx);
        }),
      );
    await Promise.all([run(0, 1, 2), run(1, 2, 1)]);
    expect(attempts.sort()).toEqual([1, 2]);
    const rows = await sql<{ id: number; v: number }>`SELECT id, v FROM retry_probe ORDER BY id`.execute(t.db);
    expect(rows.rows).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  });
});
