import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { seedDemo } from "../../db/seed/index";
import { createTestDb, type TestDb } from "../../db/index.testing";
import { createLocalBus, type BusMessage } from "../bus";
import { CARRIED_PAYLOAD_MAX, dispatch, issueCommand } from "../commands/outbox";
import type { DeviceServiceDeps } from "../context";
import { createDelivery, RECENTLY_SENT, type DeliveryState } from "./delivery";
import type { ServerFrame } from "./messages";

/**
 * A command announced with its row (commands/outbox.ts `dispatch`) goes out to the phone's socket before the outbox is
 * read; the read that follows sends what else waits and marks everything sent, and nothing is sent twice.
 */
describe("command delivery to a socket held here", () => {
  let t: TestDb;
  let deviceId: string;
  let deps: DeviceServiceDeps;
  const statements: string[] = [];
  const frames: ServerFrame[] = [];
  const fakeSocket = { OPEN: 1, readyState: 1, send: (s: string) => frames.push(JSON.parse(s) as ServerFrame) } as unknown as WebSocket;
  const conn = (): DeliveryState => ({
    ws: fakeSocket,
    device: { id: deviceId },
    statusSeen: true,
    delivering: false,
    again: false,
    againIncludeSent: false,
    mayHaveCommands: false,
  });
  const delivery = () => createDelivery<DeliveryState>(deps, { send: (c, f) => c.ws.send(JSON.stringify(f)), stillHere: () => true });
  const sentIds = () => frames.filter((f) => f.event === "command").map((f) => f.id);
  const statusOf = async (id: string) =>
    (await t.db.selectFrom("device_commands").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
  // Stored without an announcement (nobody holds the phone in these deps), as another process would have stored it.
  const store = async (type: "LOCK" | "REBOOT" = "LOCK") =>
    issueCommand({ ...deps, connections: undefined, bus: createLocalBus() }, { deviceId, type, online: true });

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    await seedDemo(t.db, new Date("2026-11-21T18:30:00Z"));
    deviceId = (await t.db.selectFrom("devices").select("id").executeTakeFirstOrThrow()).id;
    const db = t.db.withPlugin({
      transformQuery: (a) => {
        statements.push(a.node.kind);
        return a.node;
      },
      transformResult: async (a) => a.result,
    });
    deps = { db, bus: createLocalBus(), log: () => {} };
  });
  afterAll(async () => {
    await t?.destroy();
  });
  beforeEach(async () => {
    await t.db.deleteFrom("device_commands").execute();
    frames.length = 0;
    statements.length = 0;
  });

  it("sends an announced command before reading the outbox, then marks it sent, once", async () => {
    const cmd = await store();
    const c = conn();
    const d = delivery();
    statements.length = 0;
    const pass = d.deliverTo(c, false, [cmd]);
    // Out before the outbox was read: the frame did not wait for a select.
    expect(sentIds()).toEqual([cmd.id]);
    expect(statements).not.toContain("SelectQueryNode");
    await pass;
    expect(sentIds()).toEqual([cmd.id]);
    expect(frames[0]).toMatchObject({
      event: "command",
      id: cmd.id,
      data: { type: "LOCK", payload: {}, issuedAt: cmd.created_at, expiresAt: cmd.expires_at },
    });
    expect(await statusOf(cmd.id)).toBe("sent");
  });

  it("the read after it sends what else waited, in the order issued, and marks both", async () => {
    const older = await store("REBOOT");
    const cmd = await store();
    const c = conn();
    await delivery().deliverTo(c, false, [cmd]);
    // The announced one first (the older one was never announced: only a failed publish leaves one so), then the rest.
    expect(sentIds()).toEqual([cmd.id, older.id]);
    expect([await statusOf(older.id), await statusOf(cmd.id)]).toEqual(["sent", "sent"]);
  });

  it("an announcement arriving after the socket sent its command sends nothing again", async () => {
    const cmd = await store();
    const c = conn();
    const d = delivery();
    await d.deliverTo(c, true); // the phone's first pass after its status: everything open
    expect(sentIds()).toEqual([cmd.id]);
    await d.deliverTo(c, false, [cmd]);
    expect(sentIds()).toEqual([cmd.id]);
  });

  it("a command sent here whose 'sent' mark was not written is marked by the next pass, not sent again", async () => {
    const cmd = await store();
    const c = conn();
    const d = delivery();
    await d.deliverTo(c, false, [cmd]);
    await t.db.updateTable("device_commands").set({ status: "queued" }).where("id", "=", cmd.id).execute();
    await d.deliverTo(c, false);
    expect(sentIds()).toEqual([cmd.id]);
    expect(await statusOf(cmd.id)).toBe("sent");
  });

  it("remembers the last few commands only", async () => {
    const c = conn();
    const d = delivery();
    for (let i = 0; i < RECENTLY_SENT + 3; i++) await d.deliverTo(c, false, [await store()]);
    expect(c.recent).toHaveLength(RECENTLY_SENT);
    expect(new Set(sentIds()).size).toBe(RECENTLY_SENT + 3);
  });

  it("while a pass runs, an announcement's command waits for that pass's next read (order kept)", async () => {
    const first = await store("REBOOT");
    const second = await store();
    const c = conn();
    const d = delivery();
    const pass = d.deliverTo(c, false); // under way: its outbox read not answered yet
    await d.deliverTo(c, false, [second]);
    expect(sentIds()).toEqual([]);
    await pass;
    expect(sentIds()).toEqual([first.id, second.id]);
  });

  it("a phone whose status has not arrived gets nothing yet", async () => {
    const cmd = await store();
    const c = { ...conn(), statusSeen: false };
    await delivery().deliverTo(c, false, [cmd]);
    expect(sentIds()).toEqual([]);
    expect(c.mayHaveCommands).toBe(true);
  });
});

describe("what an announcement carries", () => {
  let t: TestDb;
  let deviceId: string;
  const heard: BusMessage[] = [];
  let deps: DeviceServiceDeps;
  const carriedOf = () => heard.flatMap((m) => (m.type === "device.command" ? [m.commands] : []));

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    await seedDemo(t.db, new Date("2026-11-21T18:30:00Z"));
    deviceId = (await t.db.selectFrom("devices").select("id").executeTakeFirstOrThrow()).id;
    const bus = createLocalBus();
    bus.subscribe((m) => heard.push(m));
    deps = { db: t.db, bus, log: () => {} };
  });
  afterAll(async () => {
    await t?.destroy();
  });
  beforeEach(() => {
    heard.length = 0;
  });

  it("a one-shot command: its row's frame fields", async () => {
    const cmd = await issueCommand(deps, { deviceId, type: "LOCK", online: true });
    expect(carriedOf()).toEqual([[{ id: cmd.id, type: "LOCK", payload: "{}", created_at: cmd.created_at, expires_at: cmd.expires_at }]]);
  });

  it("a payload over the limit, a policy, or a re-announcement of what is stored: nothing (read from the outbox)", async () => {
    await issueCommand(deps, { deviceId, type: "APP_REQUEST_RESULT", payload: { message: "x".repeat(CARRIED_PAYLOAD_MAX) }, online: true });
    await issueCommand(deps, {
      deviceId,
      type: "APPLY_POLICY",
      payload: { version: 1, policy: {} },
      ttlMs: null,
      policyVersion: 1,
      online: true,
    });
    await dispatch(deps, deviceId);
    expect(carriedOf()).toEqual([undefined, undefined, undefined]);
  });

  it("a command stored in a transaction not yet committed: nothing", async () => {
    await t.db.transaction().execute(async (trx) => {
      await issueCommand({ ...deps, db: trx }, { deviceId, type: "LOCK", online: true });
    });
    expect(carriedOf()).toEqual([undefined]);
  });
});
