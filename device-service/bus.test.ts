import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisBus, type Bus, type BusMessage } from "./bus";
import { TEST_REDIS_URL, waitFor } from "../server/harness.testing";

/**
 * One `parent.refresh` is published per phone status, upload and location. A device process serves no parent's
 * page, so its bus ("device") does not receive them; a web process's ("all", the default) receives everything.
 */
describe("the Redis bus: what each kind of process hears", () => {
  const tag = randomBytes(4).toString("hex");
  const buses: Bus[] = [];
  const open = (hears: "all" | "device") =>
    new Promise<{ bus: Bus; heard: BusMessage[] }>((resolve) => {
      const heard: BusMessage[] = [];
      const bus = createRedisBus(TEST_REDIS_URL, () => {}, {
        name: `bus-test-${hears}-${tag}`,
        hears,
        onSubscribed: () => resolve({ bus, heard }),
      });
      bus.subscribe((m) => heard.push(m));
      buses.push(bus);
    });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
  });

  it("a device process hears commands and unenrolments, not the parents' refreshes; a web process hears all", async () => {
    const [device, web, publisher] = await Promise.all([open("device"), open("all"), open("device")]);
    const id = `bus-test-${tag}`;
    const sent: BusMessage[] = [
      { type: "parent.refresh", parentIds: ["p1"], profileId: id, reason: "device.status" },
      { type: "device.command", deviceId: id },
      { type: "device.unenrolled", deviceId: id },
    ];
    for (const m of sent) await publisher.bus.publish(m);
    const mine = (heard: BusMessage[]) => heard.filter((m) => ("deviceId" in m ? m.deviceId : "profileId" in m ? m.profileId : "") === id);
    await waitFor(async () => mine(web.heard).length === 3);
    expect(mine(web.heard)).toEqual(sent);
    // The device bus got the two sent after the refresh: had the refresh reached it, it would have come first.
    await waitFor(async () => mine(device.heard).length === 2);
    expect(mine(device.heard)).toEqual(sent.slice(1));
  });
});
