import {
  TableNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/index.testing";
import { fleetDeviceId, MiniPhone, provisionFleet } from "./simulator/fleet";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

/** Counts the UPDATEs of device_status the service runs. */
class StatusUpdates implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const n = args.node;
    if (n.kind === "UpdateQueryNode" && n.table && TableNode.is(n.table) && n.table.table.identifier.name === "device_status") this.count++;
    return n;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const PHONES = 200;

/**
 * A network blip closes many phones' sockets at once. Each was marked offline with an UPDATE of its own, all queued on
 * the pool ahead of the reconnecting phones' reads (84 handshakes answered 503 in one 50,000-phone storm). They are now
 * marked offline together; a phone back on the process before its batch is written stays online.
 */
describe("phones whose sockets close at once (postgres)", () => {
  let tdb: TestDb;
  let h: Harness;
  const updates = new StatusUpdates();
  const phones: MiniPhone[] = [];
  const online = async () =>
    (await tdb.db.selectFrom("device_status").select(["device_id", "online"]).execute())
      .filter((r) => Number(r.online) === 1)
      .map((r) => r.device_id);

  beforeAll(async () => {
    tdb = await createTestDb("postgres");
    await provisionFleet(tdb.db, PHONES, "2000-01-02T00:00:00.000Z");
    h = await startHarness({ tdb: { ...tdb, db: tdb.db.withPlugin(updates) }, seed: false });
    for (let i = 0; i < PHONES; i++) {
      const p = new MiniPhone(i, { url: h.url.replace("http", "ws"), backoffBaseMs: 20, backoffCapMs: 100 });
      phones.push(p);
      p.connect();
    }
    await Promise.all(phones.map((p) => p.whenReady()));
  }, 60_000);

  afterAll(async () => {
    phones.forEach((p) => p.close());
    await h?.close();
    await tdb?.destroy();
  });

  it("marks them offline in a few statements, not one each", async () => {
    await waitFor(async () => (await online()).length === PHONES);
    const before = updates.count;
    phones.slice(1).forEach((p) => p.close());
    await waitFor(async () => (await online()).length === 1, 10_000);
    expect(await online()).toEqual([fleetDeviceId(0)]);
    expect(updates.count - before).toBeLessThan(20);
  });

  it("a phone that closes and is back at once stays online", async () => {
    const p = phones[0];
    for (let k = 0; k < 20; k++) {
      // The server sees the close; the phone reconnects after 0–20 ms.
      const ws = p.ws!;
      const closed = new Promise((r) => ws.once("close", r));
      ws.terminate();
      await closed;
      await p.whenReady();
    }
    // Whatever was queued has been written by now.
    await new Promise((r) => setTimeout(r, 300));
    expect(await online()).toEqual([fleetDeviceId(0)]);
  });
});
