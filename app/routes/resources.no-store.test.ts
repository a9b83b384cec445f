import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import { loader as kidPicture } from "./resources.kid-picture";
import { loader as notifications } from "./resources.notifications";

const MIA = "DEMO-MIA-0001";
// The smallest PNG there is: a 1×1 transparent pixel.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/** Issue 52 finding 7: what a kid's phone showed and the kid's photo are kept by no cache, the browser's included. */
describe("Cache-Control: no-store on the kid's notifications and picture", () => {
  let rh: RouteHarness;
  let profileId: string;
  beforeAll(async () => {
    rh = await startRouteHarness();
    profileId = (await rh.h.kid(MIA)).profileId;
    await rh.h.tdb.db.updateTable("kid_profiles").set({ picture: PNG, picture_mime: "image/png" }).where("id", "=", profileId).execute();
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  it.each([
    ["the list", (id: string) => `/resources/notifications?profileId=${id}&page=1`],
    ["the unread count", (id: string) => `/resources/notifications?profileId=${id}&count=1`],
    ["a signed-out visitor's answer", (id: string) => `/resources/notifications?profileId=${id}`],
  ])("/resources/notifications: %s", async (name, url) => {
    const res = await rh.call(notifications, url(profileId), name.includes("signed-out") ? { token: "not-a-session" } : {});
    expect(res.status).toBe(name.includes("signed-out") ? 401 : 200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("/resources/kid-picture", async () => {
    const res = await rh.call(kidPicture, `/resources/kid-picture?profileId=${profileId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });
});
