import { sql, type KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithoutFlushWait } from "../db/commit";
import type { DB } from "../db/index";
import { seedDemo } from "../db/seed/index";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { acknowledgeCommand, issueCommand, markSent } from "./commands/outbox";
import type { Bus, BusMessage } from "./bus";

// A command's "sent" mark and its acknowledgement commit without waiting for the disk (db/commit.ts): on
// PostgreSQL the acknowledgement queued behind two flushes in a row (decision 007).
describe.each(DIALECTS)("a command's sent mark and acknowledgement: commits that need not wait for the disk, on %s", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db);
  }, 60_000);
  afterAll(async () => t?.destroy());

  it("the term turns the flush wait off for its own statement only, and changes no result", async () => {
    if (dialect === "sqlite") {
      // SQLite has no such setting: the term is true, and the row comes back.
      expect(
        await t.db
          .selectNoFrom(sql<number>`1`.as("one"))
          .where(commitWithoutFlushWait(t.db))
          .executeTakeFirst(),
      ).toEqual({ one: 1 });
      return;
    }
    await t.db.connection().execute(async (conn) => {
      const setting = sql<string>`current_setting('synchronous_commit')`.as("s");
      expect(await conn.selectNoFrom(setting).where(commitWithoutFlushWait(conn)).executeTakeFirst()).toEqual({ s: "off" });
      expect(await conn.selectNoFrom(setting).executeTakeFirst()).toEqual({ s: "on" });
    });
  });

  it("markSent and the acknowledgement carry it; issuing a command does not", async () => {
    const device = await t.db.selectFrom("devices").select(["id", "profile_id"]).orderBy("id").executeTakeFirstOrThrow();
    const statements: string[] = [];
    const seen = capture(t.db, statements);
    const published: BusMessage[] = [];
    const bus = { publish: async (m: BusMessage) => void published.push(m), subscribe: () => () => {} } as unknown as Bus;
    const deps = { db: seen, bus, log: () => {} };
    const c = await issueCommand(deps, { deviceId: device.id, type: "LOCK" });
    const insert = statements.find((s) => /^insert into "device_commands"/i.test(s));
    expect(insert).toBeDefined();
    expect(insert).not.toMatch(/synchronous_commit/);
    statements.length = 0;
    await markSent(seen, [c.id]);
    expect(statements.filter((s) => /^update "device_commands"/i.test(s))).toHaveLength(1);
    expect(statements[0]).toMatch(dialect === "postgres" ? /set_config\('synchronous_commit', 'off', true\)/ : /1 = 1/);
    statements.length = 0;
    const acked = await acknowledgeCommand(deps, device.id, { commandId: c.id, status: "acknowledged" }, device.profile_id);
    expect(acked?.status).toBe("acknowledged");
    const update = statements.find((s) => /^update "device_commands"/i.test(s));
    expect(update).toMatch(dialect === "postgres" ? /set_config\('synchronous_commit', 'off', true\)/ : /1 = 1/);
    // The kid's parents hear which command was acknowledged (the fleet bench's commander times the round trip by it).
    expect(published.filter((m) => m.type === "parent.refresh")).toEqual([
      expect.objectContaining({ reason: "command.acknowledged", commandId: c.id, profileId: device.profile_id }),
    ]);
    // Stored like any other write.
    expect((await t.db.selectFrom("device_commands").select("status").where("id", "=", c.id).executeTakeFirstOrThrow()).status).toBe(
      "acknowledged",
    );
  });
});

/** The same database, recording every statement's SQL. */
function capture(db: DB, into: string[]): DB {
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      into.push(db.getExecutor().compileQuery(args.node, args.queryId).sql);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return db.withPlugin(plugin);
}
