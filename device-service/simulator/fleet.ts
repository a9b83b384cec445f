/**
 * Many phones at little cost, for the fleet bench (bench/device-fleet.ts) and the multi-process tests:
 * pre-provisioned devices with known credentials (no enrollment round trip each), and a minimal protocol
 * client that speaks just enough of the device socket (child_status first, acknowledges commands by id,
 * keeps unacknowledged frames and resends them after a reconnection, backs off with full jitter).
 */
import { createHash } from "node:crypto";
import WebSocket from "ws";
import type { DB } from "../../db/index";
import { nowIso } from "../../core/ids.server";
import { HANDSHAKE_TIMEOUT_MS } from "./wait";

export const FLEET_PARENT_ID = "fleetparent";
export const FLEET_PROFILE_ID = "fleetkid";

export const fleetDeviceId = (i: number) => `fleet${String(i).padStart(6, "0")}`;
export const fleetCredential = (i: number) => `${fleetDeviceId(i)}.s${i}`;

/** Inserts a parent, a kid and `count` devices (ids fleet000000…) unless they are there. */
export async function provisionFleet(db: DB, count: number, enrolledAt: string): Promise<void> {
  const ts = nowIso();
  const have = await db.selectFrom("parents").select("id").where("id", "=", FLEET_PARENT_ID).executeTakeFirst();
  if (!have) {
    await db
      .insertInto("parents")
      .values({
        id: FLEET_PARENT_ID,
        email: "fleet@bench.test",
        name: "Fleet",
        password_hash: null,
        role: "parent",
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    await db
      .insertInto("kid_profiles")
      .values({
        id: FLEET_PROFILE_ID,
        parent_id: FLEET_PARENT_ID,
        name: "Kid",
        birth_month: 1,
        birth_year: 2015,
        picture_mime: null,
        picture: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
  }
  const existing = await db
    .selectFrom("devices")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("profile_id", "=", FLEET_PROFILE_ID)
    .executeTakeFirstOrThrow();
  for (let i = Number(existing.n); i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
      id: fleetDeviceId(i + k),
      profile_id: FLEET_PROFILE_ID,
      serial_number: `FLEET-${i + k}`,
      credential_hash: createHash("sha256")
        .update(fleetCredential(i + k))
        .digest("hex"),
      created_at: enrolledAt,
      updated_at: ts,
    }));
    await db.insertInto("devices").values(rows).execute();
  }
}

export interface MiniPhoneOptions {
  url: string;
  /** Bare mode: no credential (the bench's bare `ws` baseline). */
  bare?: boolean;
  /** Source address of the phone's connections (127.0.0.x), so the ephemeral port range is never the limit. */
  localAddress?: string;
  backoffBaseMs?: number;
  backoffCapMs?: number;
}

type Frame = { event: string; id: string; data?: unknown };

export class MiniPhone {
  ws?: WebSocket;
  ready = false;
  /** Set: the phone is gone for good (no reconnection). */
  stopped = false;
  attempts = 0;
  seq = 0;
  /** Command ids in the order first received (each executed once), and how many arrived again. */
  readonly executed: string[] = [];
  readonly seen = new Set<string>();
  duplicates = 0;
  /** Connections lost so far (the bench counts them to know a kill -9 was noticed). */
  disconnects = 0;
  /** Frames sent and not yet acknowledged (resent after a reconnection). */
  readonly pending = new Map<string, string>();
  readonly waiters = new Map<string, () => void>();
  private readyWaiters: (() => void)[] = [];
  onCommand?: (id: string) => void;

  constructor(
    readonly i: number,
    readonly o: MiniPhoneOptions,
  ) {}

  connect(): void {
    const ws = new WebSocket(`${this.o.url}/device-socket`, {
      headers: this.o.bare ? {} : { Authorization: `Bearer ${fleetCredential(this.i)}` },
      perMessageDeflate: false,
      // A handshake nobody answers (a connection handed to a process as it was killed) is given up and retried.
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      ...(this.o.localAddress ? { localAddress: this.o.localAddress } : {}),
    });
    this.ws = ws;
    ws.on("open", () =>
      ws.send(
        JSON.stringify({
          event: "child_status",
          id: `s${this.i}-${++this.seq}`,
          data: { batteryPercentage: 80, wifiConnected: true, kidsAppStatus: "Healthy", appVersion: "3.8.1", protectionState: true },
        }),
      ),
    );
    ws.on("message", (raw) => this.onFrame(ws, JSON.parse(raw.toString()) as Frame));
    ws.on("close", () => {
      this.ready = false;
      this.disconnects++;
      if (this.stopped) return;
      const cap = Math.min(this.o.backoffCapMs ?? 8_000, (this.o.backoffBaseMs ?? 250) * 2 ** this.attempts++);
      setTimeout(() => this.stopped || this.connect(), Math.random() * cap);
    });
    ws.on("error", () => {});
  }

  private onFrame(ws: WebSocket, f: Frame): void {
    if (f.event === "ack" && f.id.startsWith("s")) {
      if (this.ready) return;
      this.ready = true;
      this.attempts = 0;
      for (const frame of this.pending.values()) ws.send(frame);
      const w = this.readyWaiters;
      this.readyWaiters = [];
      w.forEach((r) => r());
    } else if (f.event === "ack" || f.event === "echo") {
      this.pending.delete(f.id);
      this.waiters.get(f.id)?.();
      this.waiters.delete(f.id);
    } else if (f.event === "command") {
      if (this.seen.has(f.id)) this.duplicates++;
      else {
        this.seen.add(f.id);
        this.executed.push(f.id);
        this.onCommand?.(f.id);
      }
      // Acknowledged by id every time it arrives (the server's acknowledgement is idempotent).
      ws.send(JSON.stringify({ event: "command_ack", id: `c${this.i}-${++this.seq}`, data: { commandId: f.id, status: "acknowledged" } }));
    }
  }

  whenReady(): Promise<void> {
    return this.ready ? Promise.resolve() : new Promise<void>((r) => this.readyWaiters.push(r));
  }

  /** Sends a frame and resolves when it is acknowledged (resent after reconnections until then). */
  send(event: string, data: unknown): Promise<void> {
    const id = `m${this.i}-${++this.seq}`;
    const frame = JSON.stringify({ event, id, data });
    this.pending.set(id, frame);
    const p = new Promise<void>((r) => this.waiters.set(id, r));
    if (this.ready) this.ws!.send(frame);
    return p;
  }

  /** Bare baseline: the bare server echoes any frame back; resolves on the echo. */
  echo(id: string): Promise<void> {
    const p = new Promise<void>((r) => this.waiters.set(id, r));
    this.ws!.send(JSON.stringify({ event: "echo", id, data: {} }));
    return p;
  }

  close(): void {
    this.stopped = true;
    this.ws?.terminate();
  }
}
