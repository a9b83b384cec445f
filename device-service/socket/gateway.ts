import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { throttledLog } from "../../core/log";
import { sql } from "kysely";
import { OPEN_STATUSES } from "../commands/outbox";
import type { DeviceServiceDeps, LocalConnections } from "../context";
import { authenticateDevice, credentialDeviceId } from "../enrollment";
import { coalesce, coalesceWrites, inChunks } from "../coalesce";
import { UNENROLLED_CLOSE } from "../unenroll";
import { deviceToServer, MAX_FRAME_BYTES, type ServerFrame } from "./messages";
import { handleDeviceMessage, ProtocolError, type DeviceRef } from "./telemetry";
import { setOffline } from "./status-rows";
import { resumeInstalls } from "../installs";
import { createIngestBatcher, type IngestOptions } from "./ingest-batch";
import { createDelivery, type DeliveryState } from "./delivery";
import { createTelemetryLimiter, type TelemetryLimitOptions } from "./telemetry-limits";

export const PING_INTERVAL_MS = 30_000;
/** The heartbeat ticks this often; each tick pings the next share of the connections (see the heartbeat below). */
export const HEARTBEAT_TICK_MS = 100;
/** Pings sent in one turn of the event loop (see ping() and inChunks). */
export const PING_CHUNK = 50;
export const DEVICE_SOCKET_PATH = "/device-socket";

interface Conn extends DeliveryState {
  device: DeviceRef;
  alive: boolean;
  /** Frames are handled one at a time, in order; null until the first frame. */
  chain: Promise<void> | null;
  /** Installs were waiting for the phone to come online when its row was read. */
  waitingInstalls: boolean;
}

const CONN = Symbol("conn");
type SocketWithConn = WebSocket & { [CONN]?: Conn };
const connOf = (ws: WebSocket): Conn | undefined => (ws as SocketWithConn)[CONN];

export interface Gateway extends LocalConnections {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  count(): number;
  /** The ids of the phones held here. */
  ids(): string[];
  close(): Promise<void>;
}

/** The close of a session whose first status could not be stored (RFC 6455 §7.4.1: 1013, try again later). */
export const TRY_AGAIN_CLOSE = { code: 1013, reason: "Please try again later." } as const;

/** Answers an upgrade request with a plain HTTP error and closes the connection (no WebSocket is made). */
export function refuseUpgrade(socket: Duplex, status: 401 | 503, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ respones_msg: message });
  const reason = status === 401 ? "Unauthorized" : "Service Unavailable";
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export function credentialOf(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim();
  return null;
}

/**
 * The device socket. Authentication happens before the upgrade: a refused credential gets an HTTP 401 on the
 * raw socket, which is then destroyed (no WebSocket exists for it). Every accepted socket has an 'error'
 * listener from its first moment, so no frame a client sends can end the process. Frames are processed one at a time per phone, in order, and each
 * is answered once committed, so a phone can retry anything unanswered without double counting.
 */
export function createGateway(
  deps: DeviceServiceDeps,
  opts: { pingIntervalMs?: number; ingest?: IngestOptions; limits?: TelemetryLimitOptions } = {},
): Gateway {
  // The hard cap is above our own limit so an oversized frame gets a proper error event, not a 1009 close.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES * 4, perMessageDeflate: false, clientTracking: false });
  wss.on("error", (err) => deps.log("warn", "device socket server error", { error: err.message }));
  // Anyone can knock with a bad credential as fast as they like: refusals are logged at most once per 10 s (with how
  // many were held back), so they cannot fill the day's log file (core/log-files.server.ts) and push real lines out.
  const logRefused = throttledLog(deps.log, "device socket refused");
  const logAuthFailed = throttledLog(deps.log, "device auth failed");
  // Phones connecting at once (a reconnect storm) have their rows read together (socket/coalesce.ts), and with
  // them whether anything waits for them: a phone with no open command and no install waiting to come online
  // costs no outbox or install read after its status (in a storm almost none has any: two queries of five a phone).
  const deviceById = coalesce(async (ids) => {
    const rows = await deps.db
      .selectFrom("devices")
      .selectAll("devices")
      .select((eb) => [
        eb
          .exists(
            eb
              .selectFrom("device_commands")
              .select(sql<number>`1`.as("one"))
              .whereRef("device_commands.device_id", "=", "devices.id")
              .where("device_commands.status", "in", OPEN_STATUSES),
          )
          .as("has_commands"),
        eb
          .exists(
            eb
              .selectFrom("install_retries")
              .select(sql<number>`1`.as("one"))
              .whereRef("install_retries.device_id", "=", "devices.id")
              .where("install_retries.status", "=", "waiting_online"),
          )
          .as("has_waiting_installs"),
      ])
      .where("devices.id", "in", ids)
      .execute();
    return new Map(rows.map((d) => [d.id, d]));
  });
  // Phones whose row is being read: a command announced meanwhile (committed after the read's snapshot) is noted
  // here, so the phone still reads its outbox after its status.
  const connecting = new Map<string, Set<{ announced: boolean; unenrolled?: boolean }>>();
  const conns = new Map<string, Conn>();
  const all = new Set<Conn>();
  let closed = false;
  // Phones whose sockets closed are marked offline together: a network blip closes thousands at once, and one UPDATE
  // each queued them all on the pool ahead of the reconnecting phones' reads. A phone back on this process by the
  // time its batch is written is left alone (its new session's status says online).
  const markOffline = coalesceWrites<Record<string, never>>(async (batch) => {
    const ids = [...batch.keys()].filter((id) => !conns.has(id));
    if (ids.length) await setOffline(deps.db, ids, deps.processId ?? null);
  });
  // Usage and locations from every phone here are written in group commits, each acknowledged after its commit.
  const ingest = createIngestBatcher(deps, opts.ingest);
  // Per-phone rate, daily volume and size limits on what phones store (counted in memory; socket/telemetry-limits.ts).
  const limiter = createTelemetryLimiter(deps.db, opts.limits);

  const send = (c: Conn, frame: ServerFrame) => {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(frame));
  };

  // Commands go out one pass at a time per socket, retried with backoff while the phone stays here (socket/delivery.ts).
  const { deliverTo } = createDelivery<Conn>(deps, { send, stillHere: (c) => !closed && conns.get(c.device.id) === c });

  async function onFrame(c: Conn, raw: RawData, isBinary: boolean): Promise<void> {
    const size = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : (raw as Buffer).byteLength;
    if (isBinary || size > MAX_FRAME_BYTES) {
      deps.log("warn", "device frame refused", { deviceId: c.device.id, reason: isBinary ? "binary" : "oversized", size });
      send(c, {
        event: "error",
        id: "",
        data: {
          code: isBinary ? "BINARY" : "TOO_LARGE",
          message: isBinary ? "Frames are JSON text." : `Frames are at most ${MAX_FRAME_BYTES} bytes.`,
        },
      });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw.toString());
    } catch {
      deps.log("warn", "device frame refused", { deviceId: c.device.id, reason: "malformed" });
      send(c, { event: "error", id: "", data: { code: "MALFORMED", message: "Frames are JSON {event, id, data}." } });
      return;
    }
    const rawId = typeof (json as { id?: unknown })?.id === "string" ? ((json as { id: string }).id.slice(0, 100) as string) : "";
    const parsed = deviceToServer.safeParse(json);
    if (!parsed.success) {
      deps.log("warn", "device frame refused", {
        deviceId: c.device.id,
        reason: "invalid",
        event: String((json as { event?: unknown })?.event ?? "").slice(0, 40),
      });
      send(c, {
        event: "error",
        id: rawId,
        data: {
          code: "INVALID",
          message: "The frame does not match the protocol.",
          issues: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join("."), message: i.message })),
        },
      });
      return;
    }
    const msg = parsed.data;
    if (!c.statusSeen && msg.event !== "child_status") {
      send(c, { event: "error", id: msg.id, data: { code: "STATUS_FIRST", message: "Send child_status first." } });
      return;
    }
    try {
      const admitted = limiter.admit(c.device, msg);
      if (admitted) await admitted;
      await handleDeviceMessage(deps, c.device, msg, ingest);
      limiter.stored(c.device, msg.event);
      send(c, { event: "ack", id: msg.id, data: { event: msg.event } });
      if (msg.event === "child_status" && !c.statusSeen) {
        c.statusSeen = true;
        // Redelivery: everything still open, including what was sent before a disconnect.
        if (c.mayHaveCommands) await deliverTo(c, true);
        // Back online: installs that failed for the network go again.
        if (c.waitingInstalls)
          await resumeInstalls(deps, c.device.id, { online: true }).catch((err: unknown) =>
            deps.log("warn", "install resume failed", { deviceId: c.device.id, error: err instanceof Error ? err.message : String(err) }),
          );
      }
    } catch (err) {
      const code = err instanceof ProtocolError ? err.code : "SERVER_ERROR";
      if (!(err instanceof ProtocolError && err.quiet))
        deps.log(code === "SERVER_ERROR" ? "error" : "warn", "device frame failed", {
          deviceId: c.device.id,
          event: msg.event,
          code,
          error: err instanceof Error ? err.message : String(err),
        });
      send(c, {
        event: "error",
        id: msg.id,
        data: err instanceof ProtocolError ? { ...err.extra, code, message: err.message } : { code, message: "Not stored; please retry." },
      });
      // A session begins with a stored status. When it could not be stored (a saturated pool in a reconnect
      // storm, a lost database), the socket is closed with 1013 "try again later": the phone reconnects with its
      // backoff instead of sitting connected but never ready, and no command is delivered to a half-open session.
      if (msg.event === "child_status" && !c.statusSeen && code === "SERVER_ERROR")
        c.ws.close(TRY_AGAIN_CLOSE.code, TRY_AGAIN_CLOSE.reason);
    }
  }

  // Per-socket memory is the fleet's cost (10,000 phones per process): one small record per connection and
  // shared listener functions that find it through the socket, instead of four closures per socket.
  function onPong(this: WebSocket) {
    const c = connOf(this);
    if (c) c.alive = true;
  }
  function onMessage(this: WebSocket, raw: RawData, isBinary: boolean) {
    const c = connOf(this);
    if (!c) return;
    c.alive = true;
    c.chain = (c.chain ?? Promise.resolve()).then(() => onFrame(c, raw, isBinary)).catch(() => {});
  }
  function onError(this: WebSocket, err: Error) {
    deps.log("warn", "device socket error", { deviceId: connOf(this)?.device.id, error: err.message });
  }
  function onClose(this: WebSocket) {
    const c = connOf(this);
    if (!c) return;
    all.delete(c);
    if (conns.get(c.device.id) === c) {
      conns.delete(c.device.id);
      const id = c.device.id;
      void (c.chain ?? Promise.resolve())
        .then(() => markOffline(id, {}))
        .catch((err: unknown) =>
          deps.log("warn", "phone not marked offline", { deviceId: id, error: err instanceof Error ? err.message : String(err) }),
        );
    }
  }

  function attach(ws: WebSocket, device: DeviceRef, waiting: { commands: boolean; installs: boolean }) {
    // First: every socket this process holds has an error listener before anything can arrive on it.
    ws.on("error", onError);
    const c: Conn = {
      ws,
      device,
      statusSeen: false,
      alive: true,
      chain: null,
      delivering: false,
      again: false,
      againIncludeSent: false,
      mayHaveCommands: waiting.commands,
      waitingInstalls: waiting.installs,
    };
    (ws as SocketWithConn)[CONN] = c;
    const previous = conns.get(device.id);
    conns.set(device.id, c);
    all.add(c);
    if (previous) previous.ws.close(4000, "Replaced by a newer connection");
    ws.on("pong", onPong);
    ws.on("message", onMessage);
    ws.on("close", onClose);
    send(c, {
      event: "hello",
      id: "",
      data: { deviceId: device.id, serialNumber: device.serial_number, pingIntervalMs: opts.pingIntervalMs ?? PING_INTERVAL_MS },
    });
  }

  // The heartbeat is paced: every HEARTBEAT_TICK_MS the next share of the connections is pinged (at 12,500 phones and
  // a 30 s interval, 42 every 100 ms), going round them all once an interval. Dealt into ten slices of 3 s instead
  // (as an earlier version did), every process pinged 1,250 phones at once and heard 1,250 pongs back, and with the four
  // processes started together those bursts met: the machine was saturated for tens of milliseconds every 3 s, and a
  // command caught in one waited at every hop.
  const pingEvery = opts.pingIntervalMs ?? PING_INTERVAL_MS;
  const ticksPerRound = Math.max(1, Math.round(pingEvery / HEARTBEAT_TICK_MS));
  // The round under way (null between rounds) and when it began: a round begins at most once an interval, so a
  // phone is pinged once an interval however few phones there are.
  let round: IterableIterator<Conn> | null = null;
  let roundBegan = -Infinity;
  const heartbeat = setInterval(
    () => {
      if (!round) {
        if (performance.now() - roundBegan < pingEvery - HEARTBEAT_TICK_MS / 2) return;
        round = all.values();
        roundBegan = performance.now();
      }
      const due: Conn[] = [];
      const share = Math.ceil(all.size / ticksPerRound);
      while (due.length < share) {
        // A Set's iterator skips connections closed meanwhile and visits those added meanwhile.
        const next = round.next();
        if (next.done) {
          round = null;
          break;
        }
        due.push(next.value);
      }
      inChunks(due, PING_CHUNK, ping, () => closed);
    },
    Math.min(HEARTBEAT_TICK_MS, pingEvery),
  );
  heartbeat.unref();

  /**
   * A tick's share is pinged PING_CHUNK at a time, the event loop turning between two chunks (inChunks): each ping is
   * a write the kernel delivers to the phone in this process's time, and 1,250 sent in one go held the loop for
   * 35–280 ms. At the usual sizes a share is one chunk.
   */
  function ping(c: Conn): void {
    if (!c.alive) {
      c.ws.terminate();
      return;
    }
    c.alive = false;
    try {
      c.ws.ping();
    } catch {
      /* closed meanwhile */
    }
  }

  const unsubscribe = deps.bus.subscribe((m) => {
    if (m.type === "device.command") {
      const c = conns.get(m.deviceId);
      if (c) void deliverTo(c, false, m.commands);
      for (const marker of connecting.get(m.deviceId) ?? []) marker.announced = true;
    } else if (m.type === "bus.resubscribed") {
      // A Redis outage may have swallowed "new command" messages: every phone held here reads its outbox again.
      for (const c of conns.values()) void deliverTo(c, false);
      for (const set of connecting.values()) for (const marker of set) marker.announced = true;
    }
    if (m.type === "device.unenrolled") {
      // The phone was removed from the account: its credential is gone, so is its socket.
      for (const c of all) if (c.device.id === m.deviceId) c.ws.close(UNENROLLED_CLOSE.code, UNENROLLED_CLOSE.reason);
      // A socket whose credential was read before the removal and is being upgraded now is refused, not attached.
      for (const marker of connecting.get(m.deviceId) ?? []) marker.unenrolled = true;
    }
  });

  return {
    handleUpgrade(req, socket, head) {
      // Resets and broken pipes before or during the handshake are the client's business, never a crash.
      socket.on("error", () => {});
      if (closed) {
        socket.destroy();
        return;
      }
      const credential = credentialOf(req);
      const deviceId = credentialDeviceId(credential);
      const marker: { announced: boolean; unenrolled?: boolean } = { announced: false };
      if (deviceId) connecting.set(deviceId, (connecting.get(deviceId) ?? new Set()).add(marker));
      const settled = () => {
        const set = deviceId ? connecting.get(deviceId) : undefined;
        set?.delete(marker);
        if (set && !set.size) connecting.delete(deviceId!);
      };
      authenticateDevice(deps.db, credential, deviceById).then(
        (device) => {
          settled();
          if (!device || marker.unenrolled) {
            // Refused before the upgrade: no WebSocket is ever created for a bad credential, so nothing the
            // client sends afterwards is parsed as a frame.
            logRefused("warn", "device socket refused", { reason: "bad credential", ip: req.socket.remoteAddress });
            refuseUpgrade(socket, 401, "Device credential refused.");
            return;
          }
          if (closed || socket.destroyed) {
            socket.destroy();
            return;
          }
          // The 101 answer and the hello frame go out in one write (the upgrade and attach() below run in one go).
          socket.cork();
          wss.handleUpgrade(req, socket, head, (ws) => {
            attach(
              ws,
              {
                id: device.id,
                profile_id: device.profile_id,
                serial_number: device.serial_number,
                enrolled_at: device.created_at,
                app_version: device.app_version,
                fcm_token: device.fcm_token,
              },
              { commands: Boolean(device.has_commands) || marker.announced, installs: Boolean(device.has_waiting_installs) },
            );
          });
          socket.uncork();
        },
        (err: unknown) => {
          settled();
          logAuthFailed("error", "device auth failed", { error: err instanceof Error ? err.message : String(err) });
          refuseUpgrade(socket, 503, "Please try again later.");
        },
      );
    },
    has: (deviceId) => conns.has(deviceId),
    async deliver(deviceId, o = {}) {
      const c = conns.get(deviceId);
      if (c) await deliverTo(c, o.includeSent ?? false, o.carried);
    },
    count: () => conns.size,
    ids: () => [...conns.keys()],
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      const ids = [...conns.keys()];
      for (const c of all) c.ws.close(1001, "Server shutting down");
      await Promise.allSettled([...all].map((c) => c.chain ?? Promise.resolve()));
      await ingest.close();
      for (let i = 0; i < ids.length; i += 500) {
        const q = deps.db
          .updateTable("device_status")
          .set({ online: 0, online_process: null })
          .where("device_id", "in", ids.slice(i, i + 500));
        await (deps.processId ? q.where("online_process", "=", deps.processId) : q.where("online_process", "is", null))
          .execute()
          .catch(() => {});
      }
      conns.clear();
    },
  };
}
