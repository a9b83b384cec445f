import type { KyselyPlugin, QueryId } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/index.testing";
import { issueCommand } from "./commands/outbox";
import { startHarness, type Harness } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";

/**
 * Issue 22 (the reconnect storm): a phone's row is read with whether open commands or installs waiting for it
 * exist, and a phone with none reads no outbox after its status. The race that makes unsafe: a command committed
 * after that read's snapshot, announced while the read is still on its way back. Here the read is held at that
 * very point (a plugin on the gateway's database handle) while a command is issued: the phone still gets it.
 * PostgreSQL only: there the read and the command's commit are on separate connections, as with web processes on
 * other machines (SQLite's one connection would wait behind the held read).
 */
describe.each(["postgres"] as const)("a phone connecting while a command is issued (%s)", (dialect) => {
  let base: TestDb;
  let h: Harness;
  let hold: Promise<void> | null = null;
  let reached: () => void = () => {};
  const gated = new Set<QueryId>();
  /** Reads of the outbox or of installs waiting for the phone to come online, outside the row read. */
  let outboxReads = 0;
  // Holds the result of the gateway's read of the phone's row (the one query naming has_commands) while `hold` is set.
  const gate: KyselyPlugin = {
    transformQuery(args) {
      const text = JSON.stringify(args.node);
      if (text.includes('"has_commands"')) gated.add(args.queryId);
      else if (args.node.kind === "SelectQueryNode" && /"device_commands"|"waiting_online"/.test(text)) outboxReads++;
      return args.node;
    },
    async transformResult(args) {
      if (gated.delete(args.queryId) && hold) {
        reached();
        await hold;
      }
      return args.result;
    },
  };

  beforeAll(async () => {
    base = await createTestDb(dialect);
    h = await startHarness({ tdb: { ...base, db: base.db.withPlugin(gate) } });
  });
  afterAll(async () => {
    await h?.close();
    await base?.destroy();
  });

  it("a command announced while the phone's row is read reaches the phone after its status", async () => {
    const phone = await h.phone(MIA, { connect: false });
    const { deviceId } = await h.kid(MIA);
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    const atRead = new Promise<void>((r) => (reached = r));
    const connected = phone.connect();
    await atRead;
    // The read has its snapshot (no open command); the command is committed and announced now.
    const cmd = await issueCommand({ db: base.db, bus: h.bus, log: () => {} }, { deviceId, type: "RING" });
    hold = null;
    release();
    await connected;
    const got = await phone.waitForCommand("RING", 5_000);
    expect(got.id).toBe(cmd.id);
  });

  it("a phone with nothing waiting reads no outbox after its status; one with an open command gets it", async () => {
    const phone = await h.phone(MIA, { connect: false });
    const { deviceId } = await h.kid(MIA);
    await h.tdb.db
      .updateTable("device_commands")
      .set({ status: "acknowledged" })
      .where("device_id", "=", deviceId)
      .where("status", "in", ["queued", "sent"])
      .execute();
    outboxReads = 0;
    await phone.connect();
    // Frames are handled in order: once a second status is acknowledged, the first one's work is done.
    await phone.send("child_status", phone.statusData());
    expect(outboxReads).toBe(0);
    const cmd = await issueCommand({ db: base.db, bus: h.bus, log: () => {} }, { deviceId, type: "LOCK" });
    await phone.connect();
    expect((await phone.waitForCommand("LOCK", 5_000)).id).toBe(cmd.id);
  });
});
