import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Device logs (spec 2 /device-logs): Fetch Log brings the phone's upload, commands sent from the form go
// through the outbox, and every command shows its state and who sent it.
const LEO = "DEMO-LEO-0002";
const today = () => new Date().toISOString().slice(0, 10);

describe.each(DIALECTS)("device logs on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const list = (currentDate = today()) => h.caller(h.demo).logs.list({ serialNumber: LEO, currentDate });

  it("Fetch Log: the phone's upload appears as a card with key/value and list details", async () => {
    const phone = await h.phone(LEO);
    phone.state.installed.add("com.duolingo");
    const r = await h.caller(h.demo).device.fetchLogs({ serialNumber: LEO });
    const day = await waitFor(async () => {
      const l = await list();
      return l.logs.length > 0 && l.commands.find((c) => c.id === r.commandId)?.status === "acknowledged" && l;
    });
    expect(day.logs[0]).toMatchObject({ title: "Kids app log", created_at: expect.any(String) });
    expect(day.logs[0]!.entries).toEqual(
      expect.arrayContaining([
        { key: "appVersion", value: "3.8.1" },
        { key: "locked", value: "false" },
      ]),
    );
    expect(day.logs[0]!.lists).toEqual(expect.arrayContaining([{ key: "installed", items: expect.arrayContaining(["com.duolingo"]) }]));
    expect(day.commands.find((c) => c.id === r.commandId)).toMatchObject({
      type: "FETCH_LOGS",
      action: "Fetch Log",
      status: "acknowledged",
      sentBy: "Alex Morgan",
    });
  });

  it("a command from the form is recorded with who sent it and comes back acknowledged", async () => {
    await h.phone(LEO);
    const r = await h
      .caller(h.demo)
      .device.sendFcmCommand({ serialNumber: LEO, action: "enable_vpn", title: "VPN", message: "On please", packageName: "" });
    const c = await waitFor(async () => {
      const found = (await list()).commands.find((x) => x.id === r.commandId);
      return found?.status === "acknowledged" && found;
    });
    expect(c).toMatchObject({
      type: "ENABLE_VPN",
      action: "enable_vpn",
      title: "VPN",
      message: "On please",
      packageName: null,
      sentBy: "Alex Morgan",
    });
  });

  it("an empty day has no logs and no commands; a bad day is refused", async () => {
    expect(await list("2001-01-01")).toEqual({ page: 1, hasNextPage: false, logs: [], commands: [] });
    await expect(list("2026-02-30")).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("another family's phone is refused on every procedure, nothing sent", async () => {
    const before = (await list()).commands.length;
    const other = h.caller(h.other);
    await expect(other.logs.list({ serialNumber: LEO, currentDate: today() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.device.fetchLogs({ serialNumber: LEO })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.device.sendFcmCommand({ serialNumber: LEO, action: "Ring a Phone" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await list()).commands.length).toBe(before);
  });
});
