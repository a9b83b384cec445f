import { EventEmitter } from "node:events";
import { randomBytes } from "node:crypto";
import WebSocket from "ws";
import type { z } from "zod";
import type { CommandType } from "../commands/types";
import type { Hardware } from "../enrollment";
import type { childStatusData, DeviceEvent, InstallFailureReason } from "../socket/messages";
import { PhoneInstaller, type InstallFailure } from "./installer";
import { commandFrameData, serverToDevice } from "../socket/messages";
import { isBlocked } from "../policy/urls";
import { PhoneEnforcer } from "./enforcer";
import { PhoneRequests } from "./requests";
import { HANDSHAKE_TIMEOUT_MS, waitForCommand } from "./wait";
import type { PrivateDnsState } from "../../core/private-dns";
import { phoneLookup, type DotTarget, type LookupType, type PhoneLookup } from "./private-dns";

/** Lookups a phone keeps in state.lookups (the oldest dropped first). */
export const MAX_LOOKUPS = 500;

/** The host of a web address (a bare host too), or null when there is none. */
function hostOf(url: string): string | null {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`).hostname || null;
  } catch {
    return null;
  }
}

type ChildStatus = z.input<typeof childStatusData>;

export interface PhoneOptions {
  /** http(s)://host:port of the portal. */
  baseUrl: string;
  serialNumber: string;
  credential?: string;
  hardware?: Partial<Hardware>;
  status?: Partial<ChildStatus>;
  /** Reconnect after a drop, with exponential backoff and full jitter (default true). */
  reconnect?: boolean;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Packages whose install fails with the given reason, always or `times` times (spec 2 §8; simulator/installer.ts). */
  failInstalls?: Record<string, InstallFailureReason | InstallFailure>;
  /** Leave commands unacknowledged (tests of redelivery). */
  ignoreCommands?: boolean;
  /** Act on each command this long after it arrives, like a phone that has to wake up (default 0). */
  ackDelayMs?: number;
  location?: { latitude: number; longitude: number };
  /** The accuracy (metres) the phone reports with each location; absent: none reported. */
  accuracyM?: number;
  log?: (msg: string) => void;
  /**
   * Where the web filter's DNS-over-TLS listens, and the certificate to trust (simulator/private-dns.ts): with it, the
   * phone's lookups (and its visits) go through its Private DNS hostname as a real phone's do. Without it, none is made.
   */
  dot?: DotTarget;
  /**
   * The Private DNS the kid set on the phone, kept whatever the policy says (`--private-dns off|<hostname>`): a phone
   * whose kids app cannot hold the setting. Absent: the phone sets the policy's `privateDns.hostname`.
   */
  privateDns?: PrivateDnsState;
}

/** The server refused an item for the phone's limits (socket/telemetry-limits.ts): its message; any other failure is thrown on. */
function limitRefusal(err: Error & { code?: string }): string {
  if (err.code === "RATE_LIMITED" || err.code === "DAILY_LIMIT" || err.code === "TOO_LARGE") return err.message;
  throw err;
}

interface Pending {
  frame: string;
  resolve: (data: unknown) => void;
  reject: (err: Error) => void;
}

export interface ReceivedCommand {
  id: string;
  type: CommandType;
  payload: Record<string, unknown>;
}

/**
 * A virtual kids phone speaking exactly the device protocol: it enrolls over HTTP, keeps the socket,
 * sends child_status first, retries every unanswered frame after a reconnect (same id, so the server
 * never double counts), carries out commands and acknowledges them by id.
 */
export class SimulatedPhone extends EventEmitter {
  credential?: string;
  deviceId?: string;
  ws?: WebSocket;
  connected = false;
  closedByUs = false;
  readonly state = {
    locked: false,
    ringing: false,
    reboots: 0,
    policyVersion: undefined as number | undefined,
    /** The policy version whose limits the phone has enforced (after applying and acknowledging it). */
    enforcedVersion: undefined as number | undefined,
    policy: undefined as unknown,
    installed: new Set<string>(),
    disabled: new Set<string>(),
    vpn: false,
    dns: false,
    kidsAppStarted: 0,
    knoxStopped: false,
    /** The phone's Private DNS setting; undefined until it has one to report (the policy's, or the kid's own). */
    privateDns: undefined as PrivateDnsState | undefined,
    /** The lookups it made (the newest last, at most MAX_LOOKUPS kept). */
    lookups: [] as PhoneLookup[],
  };
  readonly received: ReceivedCommand[] = [];
  /** Usage it generates and the limits it enforces (simulator/enforcer.ts). */
  readonly enforcer: PhoneEnforcer = new PhoneEnforcer(this);
  /** The kid's requests and the parent's answers (simulator/requests.ts). */
  readonly requests: PhoneRequests = new PhoneRequests(this);
  /** How it installs, and which installs it fails (simulator/installer.ts). */
  readonly installer: PhoneInstaller;
  private pending = new Map<string, Pending>();
  private seq = 0;
  private attempts = 0;
  private reconnectTimer?: NodeJS.Timeout;

  constructor(public opts: PhoneOptions) {
    super();
    this.installer = new PhoneInstaller(this, opts.failInstalls);
    this.credential = opts.credential;
    this.deviceId = opts.credential?.split(".")[0];
    this.state.privateDns = opts.privateDns;
  }

  get serialNumber() {
    return this.opts.serialNumber;
  }

  hardware(): Hardware {
    return {
      serialNumber: this.opts.serialNumber,
      brand: "Google",
      model: "Pixel 8a",
      hardware: "tensor",
      basebandVersion: "g5300-00000-240101-B-0000000",
      manufacturer: "Google",
      androidVersion: "14",
      languageCode: "en-GB",
      imei: "350000000000001",
      wifiMac: "02:00:00:00:00:01",
      networkOperator: "EE",
      phoneNumber: "+44 7700 900000",
      totalRam: "8 GB",
      totalStorage: "128 GB",
      appVersion: "3.8.1",
      ...this.opts.hardware,
    };
  }

  /** Exchanges a one-time enrollment token for a device credential. */
  async enroll(token: string): Promise<string> {
    const res = await fetch(`${this.opts.baseUrl}/device-api/enroll`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token, hardware: this.hardware() }),
    });
    const body = (await res.json()) as { respones_msg: string; data?: { credential: string; deviceId: string } };
    if (!res.ok || !body.data) throw new Error(`enrollment refused (${res.status}): ${body.respones_msg}`);
    this.credential = body.data.credential;
    this.deviceId = body.data.deviceId;
    return this.credential;
  }

  statusData(): ChildStatus {
    return {
      batteryPercentage: 80,
      wifiConnected: true,
      kidsAppStatus: "Healthy",
      missingPermissions: [],
      appVersion: this.opts.hardware?.appVersion ?? "3.8.1",
      protectionState: true,
      deviceAdminActive: true,
      deviceTime: new Date().toISOString(),
      freeStorageMb: this.installer.freeStorageMb,
      ...(this.state.policyVersion !== undefined ? { policyVersion: this.state.policyVersion } : {}),
      ...(this.state.privateDns ? { privateDns: this.state.privateDns } : {}),
      ...this.opts.status,
    };
  }

  /** Opens the socket and resolves once child_status is acknowledged (or rejects when refused). */
  connect(): Promise<void> {
    if (!this.credential) return Promise.reject(new Error("enroll first"));
    this.closedByUs = false;
    const url = `${this.opts.baseUrl.replace(/^http/, "ws")}/device-socket`;
    const ws = new WebSocket(url, {
      headers: { Authorization: `Bearer ${this.credential}` },
      perMessageDeflate: false,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    });
    this.ws = ws;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (e?: Error) => {
        if (settled) return;
        settled = true;
        if (e) reject(e);
        else resolve();
      };
      ws.on("open", () => {
        const id = this.nextId();
        const frame = JSON.stringify({ event: "child_status", id, data: this.statusData() });
        this.pending.set(id, {
          frame,
          resolve: () => {
            this.connected = true;
            this.attempts = 0;
            // Everything unanswered before the drop goes again, with its original id.
            for (const [pid, p] of this.pending) if (pid !== id) ws.send(p.frame);
            this.emit("connected");
            settle();
          },
          reject: (e) => settle(e),
        });
        ws.send(frame);
      });
      // The server refuses a bad credential before the upgrade (HTTP 401): no point retrying that.
      let refused = false;
      ws.on("unexpected-response", (_req, res) => {
        refused = res.statusCode === 401;
        res.resume();
        settle(new Error(`socket refused (HTTP ${res.statusCode})`));
        ws.terminate();
      });
      ws.on("message", (raw) => this.onFrame(raw.toString()));
      // A socket this phone has already replaced (connect() called again while it was open: the server closes the
      // old one with 4000) is not the phone's connection any more: its end must not mark the phone offline or start
      // a reconnect, which would in turn replace the new socket before its status is acknowledged.
      const current = () => this.ws === ws;
      const mayReconnect = () => current() && !this.closedByUs && this.opts.reconnect !== false && !refused;
      ws.on("close", (code, reason) => {
        if (current()) {
          this.connected = false;
          this.emit("disconnected", code, reason.toString());
        }
        settle(new Error(`socket closed ${code} ${reason.toString()}`));
        if (mayReconnect()) this.scheduleReconnect();
      });
      ws.on("error", (err) => {
        this.opts.log?.(`[${this.serialNumber}] socket error: ${err.message}`);
        if (!settled && ws.readyState !== WebSocket.OPEN) {
          settle(err);
          if (mayReconnect()) this.scheduleReconnect();
        }
      });
    });
  }

  private scheduleReconnect() {
    if (this.reconnectTimer) return;
    const base = this.opts.backoffBaseMs ?? 500;
    const max = this.opts.backoffMaxMs ?? 30_000;
    const delay = Math.random() * Math.min(max, base * 2 ** this.attempts++);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closedByUs) return;
      this.connect().catch(() => {
        /* the close/error handler schedules the next try */
      });
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private nextId() {
    return `${this.serialNumber}-${++this.seq}-${randomBytes(3).toString("hex")}`;
  }

  /** Sends a frame and resolves with the server's ack; unanswered frames are re-sent after a reconnect. */
  send(event: DeviceEvent, data: unknown, id = this.nextId()): Promise<unknown> {
    const frame = JSON.stringify({ event, id, data });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { frame, resolve, reject });
      if (this.connected && this.ws?.readyState === WebSocket.OPEN) this.ws.send(frame);
    });
  }

  /** Sends raw text (tests of malformed frames); resolves with the next error frame. */
  sendRaw(text: string | Buffer): Promise<{ code: string; message: string }> {
    return new Promise((resolve) => {
      this.once("protocol-error", resolve);
      this.ws!.send(text);
    });
  }

  private onFrame(text: string) {
    let frame: { event: string; id: string; data: unknown };
    try {
      frame = serverToDevice.parse(JSON.parse(text)) as typeof frame;
    } catch {
      this.opts.log?.(`[${this.serialNumber}] unreadable frame from server`);
      return;
    }
    if (frame.event === "ack") {
      const p = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      p?.resolve(frame.data);
    } else if (frame.event === "error") {
      const p = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      const e = frame.data as { code: string; message: string };
      this.emit("protocol-error", e);
      p?.reject(Object.assign(new Error(`${e.code}: ${e.message}`), { code: e.code }));
    } else if (frame.event === "command") {
      const c = commandFrameData.safeParse(frame.data);
      if (!c.success) return;
      const cmd: ReceivedCommand = { id: frame.id, type: c.data.type, payload: c.data.payload };
      this.received.push(cmd);
      this.emit("command", cmd);
      if (!this.opts.ignoreCommands) {
        const run = () =>
          void this.execute(cmd).catch((err: unknown) => this.opts.log?.(`[${this.serialNumber}] command failed: ${String(err)}`));
        if (this.opts.ackDelayMs) setTimeout(run, this.opts.ackDelayMs).unref();
        else run();
      }
    }
  }

  private ack(cmd: ReceivedCommand, status: "acknowledged" | "failed" = "acknowledged", result?: unknown, error?: string) {
    return this.send("command_ack", {
      commandId: cmd.id,
      status,
      ...(result === undefined ? {} : { result }),
      ...(error ? { error } : {}),
    });
  }

  /** What a real phone does with each command. */
  async execute(cmd: ReceivedCommand): Promise<void> {
    const pkg = typeof cmd.payload.packageName === "string" ? cmd.payload.packageName : undefined;
    const s = this.state;
    switch (cmd.type) {
      case "LOCK":
        s.locked = true;
        return void (await this.ack(cmd));
      case "REBOOT":
        s.reboots++;
        await this.ack(cmd);
        // A reboot drops the socket; the phone comes back on its own.
        this.ws?.close(1001, "rebooting");
        return;
      case "RING":
        s.ringing = true;
        return void (await this.ack(cmd));
      case "STOP_SOUND":
        s.ringing = false;
        return void (await this.ack(cmd));
      case "SEND_LOCATION": {
        const loc = this.locationData();
        // A location the server refuses (over the phone's limits, socket/telemetry-limits.ts) fails the command with its reason.
        const refused = await this.send("location", loc).then(() => null, limitRefusal);
        if (refused) return void (await this.ack(cmd, "failed", undefined, refused.slice(0, 500)));
        return void (await this.ack(cmd, "acknowledged", loc));
      }
      case "SYNC":
        await this.send("device_info", {
          ...this.hardware(),
          batteryLevel: this.statusData().batteryPercentage,
          batteryCheckedAt: new Date().toISOString(),
        });
        await this.send("installed_apps", { apps: [...s.installed].map((packageName) => ({ packageName })) });
        await this.send("child_status", this.statusData());
        return void (await this.ack(cmd));
      case "FETCH_LOGS": {
        const refused = await this.send("device_log", {
          title: "Kids app log",
          deviceTime: new Date().toISOString(),
          details: {
            appVersion: this.statusData().appVersion,
            locked: s.locked,
            policyVersion: s.policyVersion ?? null,
            installed: [...s.installed].slice(0, 100),
          },
        }).then(() => null, limitRefusal);
        if (refused) return void (await this.ack(cmd, "failed", undefined, refused.slice(0, 500)));
        return void (await this.ack(cmd));
      }
      case "APPLY_POLICY":
        s.policy = cmd.payload.policy;
        s.policyVersion = Number(cmd.payload.version);
        this.emit("policy", s.policy);
        await this.ack(cmd, "acknowledged", { policyVersion: s.policyVersion });
        await this.applyPrivateDns();
        await this.enforcer.enforce();
        s.enforcedVersion = Math.max(s.enforcedVersion ?? 0, Number(cmd.payload.version)); // an older policy's enforcement may finish later
        return;
      case "INSTALL_APP":
        if (!pkg) return void (await this.ack(cmd, "failed", undefined, "no package"));
        return this.installer.install(cmd, pkg);
      case "UNINSTALL_APP":
        if (pkg) s.installed.delete(pkg);
        if (pkg) await this.send("install_result", { status: "UNINSTALLED", packageName: pkg });
        return void (await this.ack(cmd));
      case "ENABLE_APP":
        if (pkg) s.disabled.delete(pkg);
        return void (await this.ack(cmd));
      case "DISABLE_APP":
        if (pkg) s.disabled.add(pkg);
        return void (await this.ack(cmd));
      case "START_KID_APP":
        s.kidsAppStarted++;
        return void (await this.ack(cmd));
      case "STOP_KNOX":
        s.knoxStopped = true;
        return void (await this.ack(cmd));
      case "APP_REQUEST_RESULT":
        this.requests.receive(cmd.payload);
        return void (await this.ack(cmd));
      case "ENABLE_VPN":
      case "DISABLE_VPN":
        s.vpn = cmd.type === "ENABLE_VPN";
        return void (await this.ack(cmd));
      case "ENABLE_DNS":
      case "DISABLE_DNS":
        s.dns = cmd.type === "ENABLE_DNS";
        return void (await this.ack(cmd));
    }
  }

  // ---- Private DNS (issue 54 item 4): the policy names the kid's filter hostname; the phone sets it and says so ----
  /** Sets the policy's Private DNS hostname, unless the kid set their own (opts.privateDns); reports a change. */
  private async applyPrivateDns(): Promise<void> {
    const hostname = (this.state.policy as { privateDns?: { hostname?: string } | null } | undefined)?.privateDns?.hostname;
    if (this.opts.privateDns || !hostname) return;
    await this.changePrivateDns({ mode: "hostname", hostname });
  }

  private async changePrivateDns(next: PrivateDnsState): Promise<void> {
    const now = this.state.privateDns;
    if (now && now.mode === next.mode && now.hostname === next.hostname) return;
    this.state.privateDns = next;
    this.opts.log?.(`[${this.serialNumber}] Private DNS ${next.mode === "hostname" ? next.hostname : next.mode}`);
    this.emit("private-dns", next);
    if (this.connected) await this.send("child_status", this.statusData());
  }

  /**
   * The kid changes Private DNS on the phone (off, Automatic, another hostname), and it stays so whatever the policy
   * says; null gives it back to the policy (the filter's hostname, when the policy names one). Resolves once reported.
   */
  async setPrivateDns(state: PrivateDnsState | null): Promise<void> {
    this.opts.privateDns = state ?? undefined;
    if (state) await this.changePrivateDns(state);
    else await this.applyPrivateDns();
  }

  /**
   * Looks a name up as the phone does: through the Private DNS hostname over DNS-over-TLS when one is set (and the phone
   * knows where the filter listens, opts.dot), else through the network (not filtered). Recorded in state.lookups.
   */
  async lookup(name: string, type: LookupType = "A", at: Date = new Date()): Promise<PhoneLookup> {
    const result = await phoneLookup(this.state.privateDns ?? { mode: "opportunistic" }, this.opts.dot, name, type, at);
    this.state.lookups.push(result);
    if (this.state.lookups.length > MAX_LOOKUPS) this.state.lookups.splice(0, this.state.lookups.length - MAX_LOOKUPS);
    this.emit("lookup", result);
    return result;
  }

  // ---- browsing (issue 15): the kid opens an address; blocked when the applied policy's list covers it ----
  /**
   * Reports the visit (allowed or blocked) as browser_visit; resolves once the server acknowledged it. With opts.dot the
   * phone first looks the host up through its Private DNS: the filter's blocked answer (0.0.0.0) blocks the visit too.
   */
  async visit(url: string, at: Date = new Date()): Promise<{ blocked: boolean }> {
    const listed = isBlocked((this.state.policy as { blockedUrls?: string[] } | undefined)?.blockedUrls ?? [], url);
    // An address the kids app blocks is never opened, so never looked up; the lookup is in state.lookups.
    const host = this.opts.dot && !listed ? hostOf(url) : null;
    const lookup = host ? await this.lookup(host, "A", at) : undefined;
    const blocked = listed || Boolean(lookup?.blocked);
    await this.send("browser_visit", { url, visitedAt: at.toISOString(), blocked });
    return { blocked };
  }

  /** The battery level changed: the phone reports its status (child_status) with it; resolves once acknowledged. */
  /** Where the phone is now, as a location report says it. */
  locationData(): { latitude: number; longitude: number; deviceTime: string; accuracy?: number } {
    return {
      latitude: this.opts.location?.latitude ?? 51.5014,
      longitude: this.opts.location?.longitude ?? -0.1419,
      deviceTime: new Date().toISOString(),
      ...(this.opts.accuracyM !== undefined ? { accuracy: this.opts.accuracyM } : {}),
    };
  }

  /**
   * Moves along `points`, reporting its location at each (stored when this resolves), `stepMs` apart; `onStep` hears
   * each point reported. The server decides arrivals and departures from these reports (device-service/places.ts).
   */
  async moveAlong(
    points: readonly { latitude: number; longitude: number }[],
    opts: { stepMs?: number; onStep?: (p: { latitude: number; longitude: number }, i: number) => void } = {},
  ): Promise<void> {
    for (let i = 0; i < points.length; i++) {
      if (i > 0 && opts.stepMs) await new Promise((r) => setTimeout(r, opts.stepMs));
      this.opts.location = { latitude: points[i].latitude, longitude: points[i].longitude };
      await this.send("location", this.locationData());
      opts.onStep?.(points[i], i);
    }
  }

  async reportBattery(percentage: number): Promise<void> {
    this.opts.status = { ...this.opts.status, batteryPercentage: percentage };
    await this.send("child_status", this.statusData());
  }

  /** The kids app tells the parent something (a notification frame); resolves once the server stored it. */
  async notify(type: string, message: string, packageName?: string): Promise<void> {
    await this.send("notification", { type, message, ...(packageName ? { packageName } : {}) });
  }

  /** Resolves when a matching command of this type has arrived or arrives. */
  waitForCommand(type: CommandType, timeoutMs = 5_000, match: (c: ReceivedCommand) => boolean = () => true): Promise<ReceivedCommand> {
    return waitForCommand(this, this.received, type, timeoutMs, match);
  }

  /** Whether a reconnect is waiting for its backoff (the socket closed without close() being called). */
  reconnectScheduled(): boolean {
    return this.reconnectTimer !== undefined;
  }

  unanswered(): number {
    return this.pending.size;
  }

  close(): Promise<void> {
    this.closedByUs = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      ws.once("close", () => resolve());
      ws.close(1000, "bye");
      setTimeout(() => {
        ws.terminate();
        resolve();
      }, 1_000).unref();
    });
  }
}
