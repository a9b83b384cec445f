import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, migrateToLatest, sqliteReaderOf, type DB } from "./index";
import { executeCompiledOnce, readCompiledNow } from "./compiled";
import { createTestDb } from "./index.testing";
import { answerDelegation, createDelegation } from "./queries/delegations";
import { createKidProfile, findLiveSessionWithKids, listKidsForParent } from "./queries/kids";
import { createParent, findParentById } from "./queries/parents";
import { createSession, hashToken, revokeSession, sessionIdOf } from "./queries/sessions";

const policy = { idleMinutes: 30, absoluteDays: 7 };

/** The page cache's reads on a SQLite file go through a second connection (db/index.ts sqliteReaderOf). */
describe("the SQLite reader connection", () => {
  let dir: string;
  let db: DB;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-reader-"));
    db = createDb({ url: path.join(dir, "portal.sqlite") });
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const nameOf = (d: DB, id: string) => d.selectFrom("kid_profiles").select("name").where("id", "=", id);

  it("reads what is committed, never another transaction's uncommitted rows, and cannot write", async () => {
    const owner = await createParent(db, { email: "reader-owner@example.com", name: "Owner", passwordHash: "x" });
    const kid = await createKidProfile(db, owner.id, { name: "Mia", birthMonth: 1, birthYear: 2016 });
    const key = JSON.stringify(["test-reader-kid-name", kid]);
    expect(readCompiledNow(db, key, () => nameOf(db, kid))).toEqual([{ name: "Mia" }]);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("kid_profiles").set({ name: "Mia B" }).where("id", "=", kid).execute();
      // On Kysely's one connection a read between two statements of this transaction would see "Mia B".
      expect(await executeCompiledOnce(trx, key, () => nameOf(trx, kid))).toEqual([{ name: "Mia B" }]);
      expect(readCompiledNow(db, key, () => nameOf(db, kid))).toEqual([{ name: "Mia" }]);
    });
    expect(readCompiledNow(db, key, () => nameOf(db, kid))).toEqual([{ name: "Mia B" }]);
    // Every column, typed as better-sqlite3 gives it through Kysely (the reader builds the rows from arrays).
    const everything = () =>
      db
        .selectFrom("parents")
        .innerJoin("kid_profiles", "kid_profiles.parent_id", "parents.id")
        .selectAll()
        .where("parents.id", "=", owner.id);
    const viaKysely = await executeCompiledOnce(db, "test-reader-all", everything);
    expect(viaKysely).toHaveLength(1);
    expect(readCompiledNow(db, "test-reader-all", everything)).toEqual(viaKysely);
    expect(() => sqliteReaderOf(db)!.prepare("DELETE FROM kid_profiles").run()).toThrow(/readonly|read-only|query_only/i);
    expect(await nameOf(db, kid).execute()).toEqual([{ name: "Mia B" }]);
  });

  it("gives the page cache the session check and the kids list the Kysely connection gives", async () => {
    const owner = await createParent(db, { email: "reader-list-owner@example.com", name: "Owner", passwordHash: "x" });
    const delegate = await createParent(db, {
      email: "reader-delegate@example.com",
      name: "Delegate",
      passwordHash: "x",
      emailVerified: true,
    });
    const mia = await createKidProfile(db, owner.id, { name: "Mia", birthMonth: 1, birthYear: 2016 });
    await createKidProfile(db, owner.id, { name: "Leo", birthMonth: 2, birthYear: 2018 });
    const own = await createKidProfile(db, delegate.id, { name: "Ada", birthMonth: 3, birthYear: 2017 });
    const token = await createSession(db, delegate.id, policy);
    const first = await findLiveSessionWithKids(db, token, policy);
    expect(first?.parent).toEqual(await findParentById(db, delegate.id));
    expect(first?.kids.map((k) => k.id)).toEqual([own]);
    // An accepted delegation adds the owner's kid at once (the session's row says so, read on the reader).
    const invite = await createDelegation(db, owner, { email: delegate.email, name: "Delegate", allowedKids: [mia], accessLevel: "full" });
    expect(invite.ok).toBe(true);
    if (!invite.ok) return;
    expect((await answerDelegation(db, delegate, invite.id, "Accepted")).ok).toBe(true);
    const after = await findLiveSessionWithKids(db, token, policy);
    expect(after?.kids).toEqual(await listKidsForParent(db, delegate));
    expect(after?.kids.map((k) => k.id).sort()).toEqual([own, mia].sort());
    expect(after?.viewRevs.get(mia)).toEqual(expect.any(Number));
    await revokeSession(db, token);
    expect(await findLiveSessionWithKids(db, token, policy)).toBeUndefined();
  });

  it("is closed with the database, and absent in memory", async () => {
    const other = createDb({ url: path.join(dir, "other.sqlite") });
    await migrateToLatest(other);
    const reader = sqliteReaderOf(other)!;
    expect(reader.open).toBe(true);
    await other.destroy();
    expect(reader.open).toBe(false);
    const memory = await createTestDb("sqlite");
    try {
      expect(sqliteReaderOf(memory.db)).toBeUndefined();
      expect(readCompiledNow(memory.db, "test-reader-none", () => memory.db.selectFrom("parents").select("id"))).toBeUndefined();
    } finally {
      await memory.destroy();
    }
  });
});

describe("session ids of tokens", () => {
  it("are the token's hash, the same every time, past the memo's bound", () => {
    const tokens = Array.from({ length: 1_500 }, (_, i) => `token-${i}-${"x".repeat(40)}`);
    for (const t of tokens) expect(sessionIdOf(t)).toBe(hashToken(t));
    for (const t of tokens.slice(0, 10)) expect(sessionIdOf(t)).toBe(hashToken(t));
    expect(sessionIdOf("")).toBeNull();
    expect(sessionIdOf("y".repeat(201))).toBeNull();
  });
});
