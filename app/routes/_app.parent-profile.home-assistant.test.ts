import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getHomeAssistantSettings } from "#db/queries/webhooks";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import { action, loader } from "./_app.parent-profile";

/** /parent-profile's Home Assistant card: on or off per family, a prefix of its own, clear messages for bad ones. */
describe("/parent-profile: Home Assistant", () => {
  let rh: RouteHarness;
  beforeAll(async () => {
    rh = await startRouteHarness();
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });
  const save = (fields: Record<string, string>, token?: string) =>
    rh.call(action, "/parent-profile", { form: { intent: "home-assistant", ...fields }, token });

  it("shows the default prefix and off, then saves on and a prefix", async () => {
    const data = (await (await rh.call(loader, "/parent-profile")).json()) as { homeAssistant: Record<string, unknown> };
    expect(data.homeAssistant).toEqual({
      available: false,
      enabled: false,
      topicPrefix: `kidsportal/${rh.h.demo.id}`,
      discoveryPrefix: "homeassistant",
    });
    const res = await save({ enabled: "on", topicPrefix: "home/kids" });
    expect(await rh.toastOf(res)).toMatchObject({ type: "success", message: "Home Assistant is on for your kids." });
    expect(await getHomeAssistantSettings(rh.h.tdb.db, rh.h.demo.id)).toEqual({ enabled: true, topicPrefix: "home/kids" });
  });

  it.each([
    ["", "Please enter a topic prefix."],
    ["home/#", "Use letters, digits, - and _, with / between levels (no spaces, + or #)."],
    ["home/+/kids", "Use letters, digits, - and _, with / between levels (no spaces, + or #)."],
    ["/home", "Use letters, digits, - and _, with / between levels (no spaces, + or #)."],
    ["$SYS/kids", "Use letters, digits, - and _, with / between levels (no spaces, + or #)."],
  ])("refuses the prefix %j with a clear message, and keeps the saved one", async (prefix, message) => {
    const res = await save({ enabled: "on", topicPrefix: prefix });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ intent: "home-assistant", error: message });
    expect(await getHomeAssistantSettings(rh.h.tdb.db, rh.h.demo.id)).toEqual({ enabled: true, topicPrefix: "home/kids" });
  });

  it("refuses another family's prefix, changing nothing of either family", async () => {
    const res = await save({ enabled: "on", topicPrefix: "home/kids" }, rh.otherToken);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ intent: "home-assistant", error: "Another family uses this topic prefix. Please choose another." });
    expect(await getHomeAssistantSettings(rh.h.tdb.db, rh.h.other.id)).toBeNull();
    expect(await getHomeAssistantSettings(rh.h.tdb.db, rh.h.demo.id)).toEqual({ enabled: true, topicPrefix: "home/kids" });
  });
});
