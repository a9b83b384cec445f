import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nowIso } from "../core/ids.server";
import type { BusMessage } from "./bus";
import { issueCommand } from "./commands/outbox";
import type { PushTransport } from "./commands/push";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";
import { appRouter } from "./routers/_app";
import { createCallerFactory } from "./trpc";

// A command for a phone whose socket is not on this process goes out on the bus (to the process holding it) and,
// when the phone is connected nowhere, by push. A command procedure has already read whether the phone is online
// (before the command is stored); that answer decides the push without a second read.
const createCaller = createCallerFactory(appRouter);

describe("whether a command is pushed", () => {
  const pushed: { deviceId: string; commandId: string }[] = [];
  const push: PushTransport = {
    name: "recording",
    async send(target, msg) {
      pushed.push({ deviceId: target.deviceId, commandId: msg.commandId });
      return "skipped";
    },
  };
  const heard: BusMessage[] = [];
  let h: Harness;
  const SERIAL = "DEMO-LEO-0002";

  const setOnline = async (deviceId: string, online: boolean) => {
    await h.tdb.db.deleteFrom("device_status").where("device_id", "=", deviceId).execute();
    await h.tdb.db
      .insertInto("device_status")
      .values({
        device_id: deviceId,
        online: online ? 1 : 0,
        online_process: online ? "another-process" : null,
        battery_percentage: null,
        battery_checked_at: null,
        additional_data: null,
        app_version: null,
        updated_at: nowIso(),
      })
      .execute();
  };

  beforeAll(async () => {
    h = await startHarness({ push });
    h.bus.subscribe((m) => heard.push(m));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    pushed.length = 0;
    heard.length = 0;
  });

  it("a phone online on another process: on the bus, not pushed", async () => {
    const { deviceId } = await h.kid(SERIAL);
    await setOnline(deviceId, true);
    const r = await h.caller(h.demo).device.issueCommand({ serialNumber: SERIAL, type: "LOCK" });
    expect(r.respones_msg).toBe("Lock command sent to Leo's phone.");
    await waitFor(async () => heard.some((m) => m.type === "device.command" && m.deviceId === deviceId));
    expect(pushed).toEqual([]);
  });

  it("a Lock for a phone online on another process runs two statements: the procedure's read and the outbox insert", async () => {
    const { deviceId } = await h.kid(SERIAL);
    await setOnline(deviceId, true);
    const run: string[] = [];
    const counted = h.tdb.db.withPlugin({
      transformQuery: (args) => {
        run.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const r = await createCaller({ ...h.runtime.deps, db: counted, parent: h.demo }).device.issueCommand({
      serialNumber: SERIAL,
      type: "LOCK",
    });
    expect(r.respones_msg).toBe("Lock command sent to Leo's phone.");
    expect(run).toEqual(["SelectQueryNode", "InsertQueryNode"]);
  });

  it("a phone connected nowhere: on the bus and pushed", async () => {
    const { deviceId } = await h.kid(SERIAL);
    await setOnline(deviceId, false);
    const r = await h.caller(h.demo).device.issueCommand({ serialNumber: SERIAL, type: "REBOOT" });
    expect(r.respones_msg).toMatch(/^Reboot command sent to Leo's phone\. It is offline/);
    expect(pushed).toEqual([{ deviceId, commandId: r.commandId }]);
    expect(heard.some((m) => m.type === "device.command" && m.deviceId === deviceId)).toBe(true);
  });

  it("trusts the caller's earlier read: read as online, it is not pushed even if the phone dropped since, and the phone gets it on connecting", async () => {
    const { deviceId } = await h.kid(SERIAL);
    await setOnline(deviceId, false); // dropped after the caller's read
    const cmd = await issueCommand(h.runtime.deps, { deviceId, type: "LOCK", issuedBy: h.demo.id, online: true });
    expect(pushed).toEqual([]);
    expect((await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", cmd.id).executeTakeFirstOrThrow()).status).toBe(
      "queued",
    );
    const phone = await h.phone(SERIAL);
    await phone.waitForCommand("LOCK");
    await waitFor(
      async () =>
        (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", cmd.id).executeTakeFirstOrThrow()).status ===
        "acknowledged",
    );
    await phone.close();
  });

  it("without the caller's read (a job, an approval), the phone's state is read: offline, it is pushed", async () => {
    const { deviceId } = await h.kid(SERIAL);
    await setOnline(deviceId, false);
    const cmd = await issueCommand(h.runtime.deps, { deviceId, type: "LOCK", issuedBy: h.demo.id });
    expect(pushed).toEqual([{ deviceId, commandId: cmd.id }]);
  });
});
