import { randomBytes } from "node:crypto";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setHomeAssistantSettings } from "../db/queries/webhooks";
import { getAckState } from "../device-service/ack";
import { startHarness, waitFor, type Harness } from "./harness.testing";
import { AVAILABILITY_TOPIC, startHomeAssistantBridge, type HomeAssistantBridge } from "./home-assistant";

/**
 * Against the real Mosquitto on 127.0.0.1:1883 (CI and developer machines run it; missing, the test fails): the
 * bridge publishes Home Assistant discovery configs for the demo kid, and a switch command from "Home Assistant"
 * turns sleep mode on through the device service: the simulated phone confirms, and the state topic reads ON.
 */
const MQTT_URL = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";
const MIA = "DEMO-MIA-0001";

describe("the Home Assistant bridge over MQTT (real Mosquitto)", () => {
  let h: Harness;
  let bridge: HomeAssistantBridge;
  let ha: MqttClient;
  const run = randomBytes(4).toString("hex");
  const discoveryPrefix = `ha-test-${run}`;
  let prefix = "";
  const retained = new Map<string, string>();

  beforeAll(async () => {
    h = await startHarness();
    prefix = `kidsportal-test-${run}/${h.demo.id}`;
    await setHomeAssistantSettings(h.tdb.db, h.demo.id, { enabled: true, topicPrefix: prefix });
    // The other family has the bridge on too, under its own prefix.
    await setHomeAssistantSettings(h.tdb.db, h.other.id, { enabled: true, topicPrefix: `kidsportal-test-${run}/${h.other.id}` });
    ha = await mqtt.connectAsync(MQTT_URL, { clientId: `ha-test-${run}`, connectTimeout: 5_000, reconnectPeriod: 0 });
    ha.on("message", (topic, payload) => retained.set(topic, payload.toString()));
    await ha.subscribeAsync([`${discoveryPrefix}/#`, `kidsportal-test-${run}/#`, AVAILABILITY_TOPIC]);
    bridge = await startHomeAssistantBridge({
      url: MQTT_URL,
      discoveryPrefix,
      db: h.tdb.db,
      bus: h.bus,
      log: (level, msg, extra) => h.logs.push({ level, msg, extra }),
      device: (parent) => h.caller(parent),
    });
  }, 60_000);

  afterAll(async () => {
    // Retained configs of this run removed from the broker.
    for (const topic of retained.keys())
      if (topic.startsWith(discoveryPrefix) || topic.startsWith(`kidsportal-test-${run}`))
        await ha?.publishAsync(topic, "", { retain: true });
    await bridge?.close();
    await ha?.endAsync();
    await h?.close();
  });

  it("publishes the discovery configs of the demo kid: sensors, online, tracker, switches, buttons, with availability", async () => {
    const mia = await h.kid(MIA);
    const node = `kidsportal_${mia.profileId}`;
    const want = [
      `sensor/${node}/screen_time_today`,
      `sensor/${node}/time_left_today`,
      `sensor/${node}/battery`,
      `binary_sensor/${node}/online`,
      `device_tracker/${node}/location`,
      `switch/${node}/sleep_mode`,
      `switch/${node}/protection`,
      `button/${node}/lock`,
      `button/${node}/ring`,
      `button/${node}/locate`,
    ].map((t) => `${discoveryPrefix}/${t}/config`);
    await waitFor(async () => want.every((t) => retained.has(t)));
    const sleep = JSON.parse(retained.get(`${discoveryPrefix}/switch/${node}/sleep_mode/config`)!);
    expect(sleep).toMatchObject({
      name: "Sleep mode",
      unique_id: `${node}_sleep_mode`,
      command_topic: `${prefix}/${mia.profileId}/sleep_mode/set`,
      state_topic: `${prefix}/${mia.profileId}/state`,
      availability_topic: AVAILABILITY_TOPIC,
      device: { identifiers: [node], name: mia.name, manufacturer: "Kids Portal" },
    });
    expect(JSON.parse(retained.get(`${discoveryPrefix}/sensor/${node}/battery/config`)!)).toMatchObject({
      device_class: "battery",
      unit_of_measurement: "%",
    });
    expect(JSON.parse(retained.get(`${discoveryPrefix}/device_tracker/${node}/location/config`)!)).toMatchObject({
      json_attributes_topic: `${prefix}/${mia.profileId}/location`,
      source_type: "gps",
    });
    expect(retained.get(AVAILABILITY_TOPIC)).toBe("online");
    const state = await waitFor(async () => retained.get(`${prefix}/${mia.profileId}/state`));
    expect(JSON.parse(state)).toMatchObject({ sleep_mode: "OFF", online: expect.stringMatching(/^(ON|OFF)$/) });
  });

  it("a switch command turns sleep mode on through the device service: the phone confirms and the state topic reads ON", async () => {
    const mia = await h.kid(MIA);
    const phone = await h.phone(MIA);
    await h.tdb.db.updateTable("kid_profiles").set({ sleep_mode: 0 }).where("id", "=", mia.profileId).execute();
    await ha.publishAsync(`${prefix}/${mia.profileId}/sleep_mode/set`, "ON", { qos: 1 });
    await waitFor(async () => {
      const k = await h.tdb.db
        .selectFrom("kid_profiles")
        .select(["sleep_mode", "sleep_mode_by"])
        .where("id", "=", mia.profileId)
        .executeTakeFirst();
      return k?.sleep_mode === 1 && k.sleep_mode_by === h.demo.id;
    });
    // The simulated phone applied the policy with sleep mode on and acknowledged it.
    await waitFor(async () => (phone.state.policy as { sleepMode?: { enabled: boolean } } | undefined)?.sleepMode?.enabled === true);
    await waitFor(
      async () =>
        (await getAckState(h.tdb.db, mia.deviceId)).sleepModeAcknowledged &&
        (await getAckState(h.tdb.db, mia.deviceId)).appliedPolicyVersion !== null,
    );
    await waitFor(async () => JSON.parse(retained.get(`${prefix}/${mia.profileId}/state`) ?? "{}").sleep_mode === "ON");
  });

  it("the buttons and the protection switch go through the same procedures: ring, locate and lock reach the phone; protection turns off", async () => {
    const mia = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const ring = phone.waitForCommand("RING", 10_000);
    await ha.publishAsync(`${prefix}/${mia.profileId}/ring/press`, "PRESS", { qos: 1 });
    await ring;
    const locate = phone.waitForCommand("SEND_LOCATION", 10_000);
    await ha.publishAsync(`${prefix}/${mia.profileId}/locate/press`, "PRESS", { qos: 1 });
    await locate;
    const lock = phone.waitForCommand("LOCK", 10_000);
    await ha.publishAsync(`${prefix}/${mia.profileId}/lock/press`, "PRESS", { qos: 1 });
    await lock;
    await ha.publishAsync(`${prefix}/${mia.profileId}/protection/set`, "OFF", { qos: 1 });
    await waitFor(
      async () =>
        (await h.tdb.db.selectFrom("devices").select("protection_enabled").where("id", "=", mia.deviceId).executeTakeFirst())
          ?.protection_enabled === 0,
    );
    await waitFor(async () => JSON.parse(retained.get(`${prefix}/${mia.profileId}/state`) ?? "{}").protection === "OFF");
  });

  it("a command naming a kid of another family is ignored and logged, and changes nothing", async () => {
    const before = await h.tdb.db
      .selectFrom("kid_profiles")
      .select("sleep_mode")
      .where("id", "=", h.other.profileId)
      .executeTakeFirstOrThrow();
    await ha.publishAsync(`${prefix}/${h.other.profileId}/sleep_mode/set`, "ON", { qos: 1 });
    await waitFor(async () => h.logs.some((l) => l.msg === "home assistant command ignored: not a kid of this family"));
    const after = await h.tdb.db
      .selectFrom("kid_profiles")
      .select("sleep_mode")
      .where("id", "=", h.other.profileId)
      .executeTakeFirstOrThrow();
    expect(after.sleep_mode).toBe(before.sleep_mode);
    expect(JSON.stringify(h.logs.filter((l) => l.msg.startsWith("home assistant")))).not.toMatch(/password|secret/i);
  });

  it("a family that turns the bridge off has its kids' configs removed", async () => {
    const otherNode = `kidsportal_${h.other.profileId}`;
    const topic = `${discoveryPrefix}/switch/${otherNode}/sleep_mode/config`;
    await waitFor(async () => (retained.get(topic) ?? "") !== "");
    await setHomeAssistantSettings(h.tdb.db, h.other.id, { enabled: false, topicPrefix: `kidsportal-test-${run}/${h.other.id}` });
    await bridge.resync();
    await waitFor(async () => retained.get(topic) === "");
  });
});
