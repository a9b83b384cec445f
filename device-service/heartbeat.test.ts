import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEARTBEAT_SLICES } from "./socket/gateway";
import { fleetCredential, provisionFleet } from "./simulator/fleet";
import { startHarness, waitFor, type Harness } from "./testing";

/**
 * The socket heartbeat: every connection is pinged once an interval, the pings spread over the interval (a
 * process holding thousands of phones never pings them all in one burst), and a connection that does not
 * answer is cut at its next turn.
 */
const INTERVAL = 1_000;
const PHONES = HEARTBEAT_SLICES;

describe("device socket heartbeat", () => {
  let h: Harness;
  const sockets: WebSocket[] = [];
  const open = (i: number, autoPong: boolean) => {
    const ws = new WebSocket(`${h.url.replace(/^http/, "ws")}/device-socket`, { headers: { Authorization: `Bearer ${fleetCredential(i)}` }, perMessageDeflate: false, autoPong });
    ws.on("error", () => {});
    sockets.push(ws);
    return ws;
  };

  beforeAll(async () => {
    h = await startHarness({ pingIntervalMs: INTERVAL });
    await provisionFleet(h.tdb.db, PHONES + 1, "2000-01-02T00:00:00.000Z");
  }, 30_000);

  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await h?.close();
  });

  it("pings each phone once an interval, spread over the interval; a phone that does not answer is cut", async () => {
    const firstPing: number[] = [];
    const answering = Array.from({ length: PHONES }, (_, i) => {
      const ws = open(i, true);
      ws.once("ping", () => (firstPing[i] = performance.now()));
      return ws;
    });
    const silent = open(PHONES, false);
    let cutAt = 0;
    silent.once("close", () => (cutAt = performance.now()));
    await Promise.all([...answering, silent].map((ws) => new Promise((r) => ws.once("open", r))));
    const t0 = performance.now();

    await waitFor(async () => firstPing.filter(Boolean).length === PHONES, 5 * INTERVAL);
    // Ten connections dealt over ten slices: their first pings lie nine ticks (0.9 interval) apart, not in one burst.
    expect(Math.max(...firstPing) - Math.min(...firstPing)).toBeGreaterThanOrEqual(INTERVAL * 0.4);

    // The silent phone is pinged within an interval and cut at its next turn, an interval later.
    await waitFor(async () => cutAt > 0, 5 * INTERVAL);
    expect(cutAt - t0).toBeLessThan(2 * INTERVAL + 1_000);
    // The phones that answer stay connected past two intervals.
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + 2.2 * INTERVAL - performance.now())));
    expect(answering.map((ws) => ws.readyState)).toEqual(answering.map(() => WebSocket.OPEN));
  }, 20_000);
});
