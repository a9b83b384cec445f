import { randomBytes } from "node:crypto";
import mqtt, { type MqttClient } from "mqtt";
import { localDay } from "../core/zoned-time";
import type { DB } from "../db/index";
import { getKidOverview } from "../db/queries/dashboard/overview";
import { getGlobalDailyLimit } from "../db/queries/dashboard/limits";
import { listHomeAssistantFamilies } from "../db/queries/webhooks";
import type { Bus } from "../device-service/bus";
import type { DeviceCaller } from "../device-service/caller";
import type { LogFn, ParentIdentity } from "../device-service/context";

/**
 * Home Assistant over MQTT discovery (issue 56 item 5; docs/home-assistant.md). The web process runs it when MQTT_URL is
 * set. For every family that turned it on (/parent-profile), each kid is a Home Assistant device: sensors (screen time
 * today, time left today, battery), a binary sensor (online), a device tracker (last location), switches (sleep mode,
 * protection) and buttons (lock, ring, locate). Discovery configs are retained under the discovery prefix; states go
 * to `<family prefix>/<kid id>/state` (JSON) and `/location`, on every change the dashboards hear (the bus's
 * parent.refresh) and each minute. The bridge's availability topic is its last will.
 *
 * Commands from Home Assistant (`<family prefix>/<kid id>/<switch>/set`, `<button>/press`) go through the device
 * service's procedures as the parent who turned the bridge on: the same access checks and command budget as the
 * dashboard. A topic naming a kid who is not that family's is ignored and logged (topic parts only, never
 * credentials). Several web processes share the command subscriptions ($share), so each command runs once.
 */

export interface HomeAssistantBridgeOptions {
  url: string;
  username?: string;
  password?: string;
  /** Home Assistant's discovery prefix (HOME_ASSISTANT_DISCOVERY_PREFIX, default "homeassistant"). */
  discoveryPrefix: string;
  db: DB;
  bus: Bus;
  log: LogFn;
  /** The device service as a parent (server/services.ts `device`). */
  device: (parent: ParentIdentity) => DeviceCaller;
  /** The periodic state refresh (default 60 s). */
  refreshMs?: number;
}

export interface HomeAssistantBridge {
  /** Reads the families again (a family turned the bridge on or off, changed its prefix) and publishes. */
  resync(): Promise<void>;
  /** Publishes one kid's state now. */
  publishKid(profileId: string): Promise<void>;
  close(): Promise<void>;
}

/** The bridge's availability topic (its last will): "online" while connected, "offline" otherwise. */
export const AVAILABILITY_TOPIC = "kidsportal/bridge/availability";

const SWITCHES = ["sleep_mode", "protection"] as const;
const BUTTONS = ["lock", "ring", "locate"] as const;

interface Family {
  parent: ParentIdentity;
  prefix: string;
  kids: Map<string, string>; // kid id → name
}

/** The discovery configs of one kid: [topic, config] pairs (retained). */
export function discoveryConfigs(discoveryPrefix: string, familyPrefix: string, kid: { id: string; name: string }) {
  const node = `kidsportal_${kid.id}`;
  const base = `${familyPrefix}/${kid.id}`;
  const device = { identifiers: [node], name: kid.name, manufacturer: "Kids Portal", model: "Kid's phone" };
  const common = (object: string, name: string) => ({
    name,
    unique_id: `${node}_${object}`,
    object_id: `${node}_${object}`,
    device,
    availability_topic: AVAILABILITY_TOPIC,
  });
  const state = `${base}/state`;
  const configs: [string, Record<string, unknown>][] = [
    [
      `${discoveryPrefix}/sensor/${node}/screen_time_today/config`,
      {
        ...common("screen_time_today", "Screen time today"),
        state_topic: state,
        value_template: "{{ value_json.screen_time_today }}",
        unit_of_measurement: "min",
        device_class: "duration",
        state_class: "total_increasing",
        icon: "mdi:cellphone-clock",
      },
    ],
    [
      `${discoveryPrefix}/sensor/${node}/time_left_today/config`,
      {
        ...common("time_left_today", "Time left today"),
        state_topic: state,
        value_template: "{{ value_json.time_left_today }}",
        unit_of_measurement: "min",
        device_class: "duration",
        icon: "mdi:timer-sand",
      },
    ],
    [
      `${discoveryPrefix}/sensor/${node}/battery/config`,
      {
        ...common("battery", "Battery"),
        state_topic: state,
        value_template: "{{ value_json.battery }}",
        unit_of_measurement: "%",
        device_class: "battery",
        state_class: "measurement",
      },
    ],
    [
      `${discoveryPrefix}/binary_sensor/${node}/online/config`,
      {
        ...common("online", "Online"),
        state_topic: state,
        value_template: "{{ value_json.online }}",
        payload_on: "ON",
        payload_off: "OFF",
        device_class: "connectivity",
      },
    ],
    [
      `${discoveryPrefix}/device_tracker/${node}/location/config`,
      { ...common("location", "Location"), json_attributes_topic: `${base}/location`, source_type: "gps" },
    ],
    ...SWITCHES.map((s): [string, Record<string, unknown>] => [
      `${discoveryPrefix}/switch/${node}/${s}/config`,
      {
        ...common(s, s === "sleep_mode" ? "Sleep mode" : "Protection"),
        state_topic: state,
        value_template: `{{ value_json.${s} }}`,
        command_topic: `${base}/${s}/set`,
        payload_on: "ON",
        payload_off: "OFF",
        state_on: "ON",
        state_off: "OFF",
        icon: s === "sleep_mode" ? "mdi:sleep" : "mdi:shield-lock",
      },
    ]),
    ...BUTTONS.map((b): [string, Record<string, unknown>] => [
      `${discoveryPrefix}/button/${node}/${b}/config`,
      {
        ...common(b, b === "lock" ? "Lock" : b === "ring" ? "Ring" : "Locate"),
        command_topic: `${base}/${b}/press`,
        payload_press: "PRESS",
        icon: b === "lock" ? "mdi:lock" : b === "ring" ? "mdi:bell-ring" : "mdi:crosshairs-gps",
      },
    ]),
  ];
  return configs;
}

/** What one kid's state topic says, and its location (null: none known). */
export async function kidState(db: DB, profileId: string, now: Date = new Date()) {
  const kid = await getKidOverview(db, profileId);
  if (!kid) return null;
  const d = kid.device;
  let used = 0;
  let left: number | null = null;
  if (d) {
    const day = localDay(now, kid.timeZone);
    const r = await db
      .selectFrom("app_usage_daily")
      .select((eb) => eb.fn.sum<number>("minutes").as("m"))
      .where("device_id", "=", d.id)
      .where("day", "=", day)
      .executeTakeFirst();
    used = Math.round(Number(r?.m ?? 0));
    const limit = await getGlobalDailyLimit(db, d.id);
    left = limit > 0 ? Math.max(0, limit - used) : null;
  }
  return {
    state: {
      screen_time_today: used,
      time_left_today: left,
      battery: d?.batteryPercentage ?? null,
      online: d?.online ? "ON" : "OFF",
      sleep_mode: kid.profile.sleepMode ? "ON" : "OFF",
      protection: d?.protectionEnabled ? "ON" : "OFF",
    },
    location: d?.lastLocation
      ? { latitude: d.lastLocation.latitude, longitude: d.lastLocation.longitude, gps_accuracy: 50, last_seen: d.lastLocation.deviceTime }
      : null,
    serialNumber: d?.serialNumber ?? null,
  };
}

export async function startHomeAssistantBridge(o: HomeAssistantBridgeOptions): Promise<HomeAssistantBridge> {
  const families = new Map<string, Family>(); // parent id → family
  const byPrefix = new Map<string, Family>();
  const subscribed = new Set<string>();
  const pending = new Map<string, NodeJS.Timeout>();
  let closed = false;
  const where = (() => {
    try {
      return new URL(o.url).host;
    } catch {
      return "MQTT_URL";
    }
  })();

  const client: MqttClient = await mqtt.connectAsync(o.url, {
    username: o.username || undefined,
    password: o.password || undefined,
    clientId: `kidsportal-${randomBytes(6).toString("hex")}`,
    reconnectPeriod: 5_000,
    connectTimeout: 10_000,
    will: { topic: AVAILABILITY_TOPIC, payload: Buffer.from("offline"), retain: true, qos: 1 },
  });
  client.on("error", (err) => o.log("warn", "home assistant bridge: mqtt error", { broker: where, error: err.message }));
  client.on("connect", () => {
    // A reconnection: availability and everything retained again.
    void publish(AVAILABILITY_TOPIC, "online").then(() => resync());
  });

  const publish = (topic: string, payload: string) =>
    client.publishAsync(topic, payload, { retain: true, qos: 1 }).then(
      () => undefined,
      (err: Error) => o.log("warn", "home assistant bridge: publish failed", { topic, error: err.message }),
    );

  async function publishKid(profileId: string): Promise<void> {
    const family = [...families.values()].find((f) => f.kids.has(profileId));
    if (!family || closed) return;
    const s = await kidState(o.db, profileId);
    if (!s) return;
    await publish(`${family.prefix}/${profileId}/state`, JSON.stringify(s.state));
    if (s.location) await publish(`${family.prefix}/${profileId}/location`, JSON.stringify(s.location));
  }

  async function clearKid(family: { prefix: string }, kid: { id: string; name: string }) {
    for (const [topic] of discoveryConfigs(o.discoveryPrefix, family.prefix, kid)) await publish(topic, "");
  }

  async function resync(): Promise<void> {
    if (closed) return;
    const rows = await listHomeAssistantFamilies(o.db);
    const seen = new Set<string>();
    for (const r of rows) {
      seen.add(r.id);
      const kids = await o.db
        .selectFrom("kid_profiles")
        .select(["id", "name"])
        .where("parent_id", "=", r.id)
        .orderBy("created_at")
        .execute();
      const prev = families.get(r.id);
      // Kids gone, or the whole family under another prefix: their configs are removed.
      if (prev)
        for (const [id, name] of prev.kids)
          if (prev.prefix !== r.topic_prefix || !kids.some((k) => k.id === id)) await clearKid(prev, { id, name });
      if (prev && prev.prefix !== r.topic_prefix) byPrefix.delete(prev.prefix);
      const family: Family = {
        parent: { id: r.id, email: r.email, role: r.role },
        prefix: r.topic_prefix,
        kids: new Map(kids.map((k) => [k.id, k.name])),
      };
      families.set(r.id, family);
      byPrefix.set(family.prefix, family);
      for (const filter of [`${family.prefix}/+/+/set`, `${family.prefix}/+/+/press`]) {
        const shared = `$share/kidsportal/${filter}`;
        if (!subscribed.has(shared)) {
          await client.subscribeAsync(shared, { qos: 1 });
          subscribed.add(shared);
        }
      }
      for (const k of kids)
        for (const [topic, config] of discoveryConfigs(o.discoveryPrefix, family.prefix, k)) await publish(topic, JSON.stringify(config));
      for (const k of kids) await publishKid(k.id);
    }
    for (const [id, f] of [...families]) {
      if (seen.has(id)) continue;
      for (const [kidId, name] of f.kids) await clearKid(f, { id: kidId, name });
      families.delete(id);
      byPrefix.delete(f.prefix);
    }
  }

  /** A command from Home Assistant: the family by prefix, the kid checked as that family's, then the procedure. */
  async function onCommand(topic: string, payload: string): Promise<void> {
    const m = topic.match(/^(.+)\/([0-9a-f]{1,64})\/([a-z_]+)\/(set|press)$/);
    const family = m ? byPrefix.get(m[1]!) : undefined;
    if (!m || !family) return;
    const [, , kidId, object] = m as unknown as [string, string, string, string];
    if (!family.kids.has(kidId)) {
      o.log("warn", "home assistant command ignored: not a kid of this family", { prefix: family.prefix, object });
      return;
    }
    const caller = o.device(family.parent);
    const serial = async () => (await kidState(o.db, kidId))?.serialNumber ?? null;
    try {
      if (object === "sleep_mode" && (payload === "ON" || payload === "OFF"))
        await caller.kids.setSleepMode({ profileId: kidId, sleepMode: payload === "ON" });
      else if (object === "protection" && (payload === "ON" || payload === "OFF")) {
        const serialNumber = await serial();
        if (serialNumber) await caller.kids.setProtection({ profileId: kidId, serialNumber, kidsAppProtectionStatus: payload === "ON" });
      } else if ((BUTTONS as readonly string[]).includes(object) && payload === "PRESS") {
        const serialNumber = await serial();
        if (!serialNumber) return;
        if (object === "lock") await caller.device.issueCommand({ serialNumber, profileId: kidId, type: "LOCK" });
        else
          await caller.device.sendFcmCommand({
            serialNumber,
            profileId: kidId,
            action: object === "ring" ? "Ring a Phone" : "send_location",
          });
      } else {
        o.log("info", "home assistant command ignored: unknown command", { prefix: family.prefix, object });
        return;
      }
      o.log("info", "home assistant command carried out", { parent: family.parent.id, object });
      await publishKid(kidId);
    } catch (err) {
      o.log("warn", "home assistant command refused", { object, error: err instanceof Error ? err.message : String(err) });
    }
  }

  client.on("message", (topic, payload) => {
    if (topic === `${o.discoveryPrefix}/status`) {
      // Home Assistant restarted: it asks for the configs again.
      if (payload.toString() === "online") void resync().catch(() => {});
      return;
    }
    void onCommand(topic, payload.toString().trim());
  });
  await client.subscribeAsync(`${o.discoveryPrefix}/status`, { qos: 1 });

  // Changes the dashboards hear: the kid's state again, at most every half second per kid.
  const unsubscribe = o.bus.subscribe((msg) => {
    if (msg.type !== "parent.refresh" || !("profileId" in msg) || typeof msg.profileId !== "string") return;
    const id = msg.profileId;
    if (![...families.values()].some((f) => f.kids.has(id)) || pending.has(id)) return;
    const t = setTimeout(() => {
      pending.delete(id);
      void publishKid(id).catch(() => {});
    }, 500);
    t.unref();
    pending.set(id, t);
  });
  const timer = setInterval(
    () => void resync().catch((err: Error) => o.log("warn", "home assistant bridge: refresh failed", { error: err.message })),
    o.refreshMs ?? 60_000,
  );
  timer.unref();

  await publish(AVAILABILITY_TOPIC, "online");
  await resync();
  o.log("info", "home assistant bridge connected", { broker: where, families: families.size });

  return {
    resync,
    publishKid,
    async close() {
      closed = true;
      clearInterval(timer);
      unsubscribe();
      for (const t of pending.values()) clearTimeout(t);
      await publish(AVAILABILITY_TOPIC, "offline");
      await client.endAsync();
    },
  };
}
