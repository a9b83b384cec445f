import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../index.testing";
import { findLiveSessionWithKids } from "./kids";
import { createParent } from "./parents";
import { createSession, findLiveSession, findLiveSessionParent, type SessionPolicy } from "./sessions";
import type { DB } from "../index";

const policy: SessionPolicy = { idleMinutes: 30, absoluteDays: 7 };
const settled = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p.then(() => "settled" as const), new Promise<"pending">((r) => setTimeout(() => r("pending"), ms))]);

/**
 * The idle clock's once-a-minute touch is not waited for by the request that made it (its commit can stall on the
 * disk), and the next read of the same session in the process waits for it, so it reads its own write. Shown on
 * PostgreSQL, where another connection's row lock holds the touch for as long as the test likes.
 */
type FindLive = (db: DB, token: string, now: Date) => Promise<unknown>;
const readers: [string, FindLive][] = [
  ["findLiveSessionParent", (db, token, now) => findLiveSessionParent(db, token, policy, now)],
  ["findLiveSession", (db, token, now) => findLiveSession(db, token, policy, now)],
  ["findLiveSessionWithKids", (db, token, now) => findLiveSessionWithKids(db, token, policy, {}, now)],
];

describe.each(readers)("the session's idle-clock touch on postgres (%s)", (name, findLive) => {
  let t: TestDb;
  let locker: pg.Client;
  beforeAll(async () => {
    t = await createTestDb("postgres");
    locker = new pg.Client({ connectionString: t.url });
    locker.on("error", () => {});
    await locker.connect();
  }, 30_000);
  afterAll(async () => {
    await locker?.end();
    await t?.destroy();
  });

  it("answers without waiting for the touch; the next read waits for it and sees it", async () => {
    const parent = await createParent(t.db, { email: `touch-${name}@example.com`, name: "T", passwordHash: "x" });
    const start = new Date(Date.now() - 5 * 60_000);
    const token = await createSession(t.db, parent.id, policy, {}, start);
    const now = new Date();

    // Another connection holds the session's row: a touch (UPDATE) waits until it lets go.
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM sessions WHERE parent_id = $1 FOR UPDATE", [parent.id]);
    try {
      const first = findLive(t.db, token, now);
      expect(await settled(first, 3_000), "the read that started the touch waited for it").toBe("settled");
      expect(await first).toBeTruthy();
      // The next read of this session in this process waits for the touch in flight.
      const second = findLive(t.db, token, now);
      expect(await settled(second, 300)).toBe("pending");
      await locker.query("COMMIT");
      expect(await second).toBeTruthy();
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
    }
    const row = await t.db.selectFrom("sessions").select("last_seen_at").where("parent_id", "=", parent.id).executeTakeFirstOrThrow();
    expect(row.last_seen_at).toBe(now.toISOString());
  });
});
