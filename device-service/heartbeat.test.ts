import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEARTBEAT_TICK_MS } from "./socket/gateway";
import { fleetCredential, provisionFleet } from "./simulator/fleet";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

/**
 * The socket heartbeat: every connection is pinged once an interval, the pings paced over the interval (a
 * process holding thousands of phones never pings them all in one burst), and a connection that does not
 * answer is cut at its next turn.
 */
const INTERVAL = 1_000;
const PHONES = INTERVAL / HEARTBEAT_TICK_MS;

describe("device socket heartbeat", () => {
  let h: Harness;
  const sockets: WebSocket[] = [];
  const open = (i: number, autoPong: boolean) => {
    const ws = new WebSocket(`${h.url.replace(/^http/, "ws")}/device-socket`, {
      headers: { Authorization: `Bearer ${fleetCredential(i)}` },
      perMessageDeflate: false,
      autoPong,
    });
    ws.on("error", () => {});
    sockets.push(ws);
    return ws;
  };

  beforeAll(async () => {
    h = await startHarness({ pingIntervalMs: INTERVAL });
    await provisionFleet(h.tdb.db, Math.max(PHONES + 1, 60), "2000-01-02T00:00:00.000Z");
  }, 30_000);

  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await h?.close();
  });

  it("pings each phone once an interval, spread over the interval; a phone that does not answer is cut", async () => {
    const firstPing: number[] = [];
    // Nine that answer and one that does not: ten connections, one a tick (with eleven it was two a tick, and their
    // first pings only half an interval apart, too close to the bound below on a loaded machine: they are timed as
    // the test receives them).
    const answering = Array.from({ length: PHONES - 1 }, (_, i) => {
      const ws = open(i, true);
      ws.once("ping", () => (firstPing[i] = performance.now()));
      return ws;
    });
    const silent = open(PHONES - 1, false);
    let cutAt = 0;
    silent.once("close", () => (cutAt = performance.now()));
    await Promise.all([...answering, silent].map((ws) => new Promise((r) => ws.once("open", r))));
    const t0 = performance.now();

    await waitFor(async () => firstPing.filter(Boolean).length === answering.length, 5 * INTERVAL);
    // Ten connections, ten ticks an interval: the nine's first pings lie at least eight ticks (0.8 interval) apart, not in one burst.
    expect(Math.max(...firstPing) - Math.min(...firstPing)).toBeGreaterThanOrEqual(INTERVAL * 0.4);

    // The silent phone is pinged within an interval and cut at its next turn, an interval later.
    await waitFor(async () => cutAt > 0, 5 * INTERVAL);
    expect(cutAt - t0).toBeLessThan(2 * INTERVAL + 1_000);
    // The phones that answer stay connected past two intervals.
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + 2.2 * INTERVAL - performance.now())));
    expect(answering.map((ws) => ws.readyState)).toEqual(answering.map(() => WebSocket.OPEN));
  }, 20_000);

  it("paces the pings: a tick pings its share of the phones, never a burst of many", async () => {
    // 60 phones on a 3 s interval: 30 ticks, two phones a tick. (Dealt into ten slices of 0.3 s, as an earlier version did,
    // they came six at a time.)
    const paced = await startHarness({ pingIntervalMs: 3_000, tdb: h.tdb, seed: false });
    try {
      const times: number[] = [];
      const phones = Array.from({ length: 60 }, (_, i) => {
        const ws = new WebSocket(`${paced.url.replace(/^http/, "ws")}/device-socket`, {
          headers: { Authorization: `Bearer ${fleetCredential(i)}` },
          perMessageDeflate: false,
        });
        ws.on("error", () => {});
        ws.once("ping", () => times.push(performance.now()));
        sockets.push(ws);
        return ws;
      });
      await Promise.all(phones.map((ws) => new Promise((r) => ws.once("open", r))));
      await waitFor(async () => times.length === phones.length, 10_000);
      times.sort((a, b) => a - b);
      // The most pings within any 50 ms (a late tick may run right before the next one: at most two ticks' shares).
      const most = Math.max(...times.map((t, i) => times.filter((u, j) => j >= i && u - t < 50).length));
      expect(most).toBeLessThanOrEqual(4);
      expect(times.at(-1)! - times[0]!).toBeGreaterThan(1_500);
    } finally {
      for (const ws of sockets.splice(-60)) ws.terminate();
      await paced.close();
    }
  }, 30_000);
});
