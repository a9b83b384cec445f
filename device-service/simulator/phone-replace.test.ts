import type { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../server/harness.testing";

const MIA = "DEMO-MIA-0001";

/**
 * A simulated phone that calls connect() while its socket is open gets a new socket; the server closes the old one
 * with 4000 "Replaced by a newer connection". That close is the end of a socket the phone already gave up, not of
 * its connection: it must not start a reconnect, whose new socket would in turn replace the one just opened
 * (connect-skip.test.ts failed in CI that way: its second connect() was rejected with that 4000).
 */
describe("simulated phone: connecting again while connected", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: "sqlite" });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("the replaced socket's close neither marks the phone offline nor schedules a reconnect", async () => {
    // No backoff: a reconnect, if one were scheduled, would run at once and replace the new socket.
    const phone = await h.phone(MIA, { backoffBaseMs: 0 });
    let connects = 0;
    let disconnects = 0;
    phone.on("connected", () => connects++);
    phone.on("disconnected", () => disconnects++);
    const old = (phone as unknown as { ws: WebSocket }).ws;
    const oldClosed = new Promise<number>((r) => old.once("close", (code: number) => r(code)));

    await phone.connect();
    expect(await oldClosed).toBe(4000);
    // The phone's own close listener ran before this one: it had its chance to schedule a reconnect.
    expect(phone.reconnectScheduled()).toBe(false);
    expect(disconnects).toBe(0);
    expect(phone.connected).toBe(true);
    // The new socket carries frames: a status is acknowledged on it, and no further connection was made.
    await phone.send("child_status", phone.statusData());
    expect(connects).toBe(1);
  });
});
