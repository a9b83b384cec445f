import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { TRY_AGAIN_CLOSE } from "./socket/gateway";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

/**
 * A saturated server (its database pool waiting longer than PG_CONNECT_TIMEOUT_MS, answered "timeout exceeded
 * when trying to connect") never loses a parent's command silently: a failure before the command is stored
 * refuses it with a clear message and stores nothing; once it is stored, the parent is told it was sent and
 * the phone receives it, even when the reads after the insert fail (delivery is retried while the phone is
 * connected).
 */
const POOL_TIMEOUT = "timeout exceeded when trying to connect";
const MIA = "DEMO-MIA-0001";

/**
 * Fails the next `n` SELECTs reading `table` (with `allColumns`: only `select *`), or with `updates` the next `n`
 * UPDATEs or INSERTs (upserts) of it, as a saturated pool would.
 */
function flaky() {
  const failures = new Map<string, number>();
  let allColumnsOnly = false;
  let updates = false;
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const node = args.node;
      const target =
        node.kind === "SelectQueryNode" && !updates
          ? node.from
          : node.kind === "UpdateQueryNode" && updates
            ? node.table
            : node.kind === "InsertQueryNode" && updates
              ? node.into
              : undefined;
      if (target) {
        for (const [table, n] of failures) {
          const all = node.kind === "SelectQueryNode" && JSON.stringify(node.selections ?? []).includes("SelectAllNode");
          if (n > 0 && JSON.stringify(target).includes(`"name":"${table}"`) && (updates || all || !allColumnsOnly)) {
            failures.set(table, n - 1);
            throw new Error(POOL_TIMEOUT);
          }
        }
      }
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
  };
  return {
    plugin,
    failNext: (table: string, n: number, allColumns = false, update = false) => {
      allColumnsOnly = allColumns;
      updates = update;
      failures.set(table, n);
    },
    left: (table: string) => failures.get(table) ?? 0,
  };
}

describe.each(DIALECTS)("commands on a saturated server (%s)", (dialect) => {
  let h: Harness;
  let tdb: TestDb;
  const f = flaky();
  beforeAll(async () => {
    tdb = await createTestDb(dialect);
    h = await startHarness({ tdb: { ...tdb, db: tdb.db.withPlugin(f.plugin) } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await tdb?.destroy();
  });

  const commandsOf = async (deviceId: string) =>
    (await tdb.db.selectFrom("device_commands").select("id").where("device_id", "=", deviceId).where("type", "=", "LOCK").execute()).length;

  it("a Lock that fails before it is stored is refused with a clear message, and nothing is stored or sent", async () => {
    const phone = await h.phone(MIA);
    const before = await commandsOf(phone.deviceId!);
    // The procedure's first read: the phone, with its kid, the access check, its online state and the budget's count.
    f.failNext("devices", 1);
    await expect(h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "LOCK" })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "The service is briefly unavailable. Please try again in a minute.",
    });
    expect(f.left("devices")).toBe(0);
    expect(await commandsOf(phone.deviceId!)).toBe(before);
    await new Promise((r) => setTimeout(r, 300));
    expect(phone.state.locked).toBe(false);
  });

  it("a Lock stored while the reads after the insert fail is answered as sent and reaches the phone", async () => {
    const phone = await h.phone(MIA);
    phone.state.locked = false;
    // The gateway's read of the phone's outbox and the procedure's read of the stored command (both `select *`;
    // the command budget before the insert counts) fail once each.
    f.failNext("device_commands", 2, true);
    const r = await h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "LOCK" });
    expect(r.respones_msg).toBe("Lock command sent to Mia's phone.");
    await waitFor(async () => phone.state.locked);
    // Both reads failed once (the gateway's may run just after the procedure answers: outbox reads are coalesced).
    expect(f.left("device_commands")).toBe(0);
    await waitFor(
      async () =>
        (await tdb.db.selectFrom("device_commands").select("status").where("id", "=", r.commandId).executeTakeFirst())?.status ===
        "acknowledged",
    );
    expect(h.logs.some((l) => l.msg === "command delivery failed; retrying")).toBe(true);
  });

  it("a phone whose first status cannot be stored is closed with 1013 (try again later), reconnects and is ready; nothing waits on a half-open session", async () => {
    const phone = await h.phone(MIA, { connect: false });
    const closes: number[] = [];
    phone.on("disconnected", (code: number) => closes.push(code));
    const connected = new Promise<void>((r) => phone.once("connected", () => r()));
    f.failNext("device_status", 1, false, true);
    await expect(phone.connect()).rejects.toMatchObject({ code: "SERVER_ERROR" });
    expect(f.left("device_status")).toBe(0);
    await connected;
    expect(closes).toEqual([TRY_AGAIN_CLOSE.code]);
    expect(h.logs.some((l) => l.msg === "device frame failed" && l.extra?.event === "child_status")).toBe(true);
    // The session that came back works: a Lock reaches the phone.
    phone.state.locked = false;
    await h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "LOCK" });
    await waitFor(async () => phone.state.locked);
  });
});
