import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "./web.testing";

/**
 * Issue 53 item 9, the real server as `npm start` runs it (production build, SQLite, the demo family seeded, its
 * phones simulated with their demo activity on the DEFAULT schedule): within a minute of the start, a newcomer's
 * pages have something in them — each kid's /requests lists an install, an uninstall and an extra-time request,
 * /browser-logs lists visited sites, the notification center has the phone's own notifications, and the battery moved.
 */
const MINUTE = 60_000;
let h: Awaited<ReturnType<typeof startTestServer>>;
let cookie: string;
let startedAt: number;
let kids: { name: string; profileId: string; serial: string; deviceId: string }[];
/** The seed's battery levels (db/seed/index.ts): Mia 76 %, Leo 15 %. */
const SEEDED_BATTERY: Record<string, number> = { Mia: 76, Leo: 15 };

beforeAll(async () => {
  h = await startTestServer("demo-activity", { SIMULATE_DEMO_DEVICES: "true", SIMULATOR_DEMO_ACTIVITY: "true" });
  // The server is up (`npm start` prints its address now): its demo phones have just connected. The start itself
  // (migrations, the seed) is not counted: on a loaded test machine it alone can take tens of seconds.
  startedAt = Date.now();
  cookie = (await h.signIn("demo@kids-portal.test")).cookie;
  kids = await h.db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select(["kid_profiles.name", "devices.profile_id as profileId", "devices.serial_number as serial", "devices.id as deviceId"])
    .orderBy("kid_profiles.name")
    .execute();
  expect(kids.map((k) => k.name)).toEqual(["Leo", "Mia"]);
}, 60_000);
afterAll(async () => {
  await h?.started.close();
});

/** What a newcomer's pages show for one kid now: which checks hold. */
async function look(kid: (typeof kids)[number]) {
  const q = new URLSearchParams({ profileId: kid.profileId, serialNumber: kid.serial });
  const requests = (await h.get(`/requests?${q}`, cookie)).html;
  const logs = (await h.get(`/browser-logs?${q}`, cookie)).html;
  const notes = (await h.get(`/kids-device?${new URLSearchParams({ profileId: kid.profileId, modal: "notifications" })}`, cookie)).html;
  const status = await h.db
    .selectFrom("device_status")
    .select("battery_percentage")
    .where("device_id", "=", kid.deviceId)
    .executeTakeFirst();
  return {
    install: requests.includes("App Installation Request"),
    uninstall: requests.includes("App Uninstallation Request"),
    extend: /App Time Extend Request - (15|30) Minutes/.test(requests),
    visits: !logs.includes("No data found.") && /www\.bbc\.co\.uk\/cbbc|kids\.nationalgeographic\.com/.test(logs),
    notification: notes.includes(`${kid.name} opened `),
    battery: status?.battery_percentage !== SEEDED_BATTERY[kid.name],
  };
}

describe("a living demo (npm start's first minute)", () => {
  it(
    "within a minute of the start every kid has all three kinds of request, visited sites, notifications and a battery that moved",
    async () => {
      const all = { install: true, uninstall: true, extend: true, visits: true, notification: true, battery: true };
      let seen: Record<string, Awaited<ReturnType<typeof look>>> = {};
      for (;;) {
        seen = Object.fromEntries(await Promise.all(kids.map(async (k) => [k.name, await look(k)] as const)));
        if (Object.values(seen).every((s) => Object.values(s).every(Boolean))) break;
        if (Date.now() - startedAt > MINUTE) break;
        await new Promise((r) => setTimeout(r, 2_000));
      }
      expect(seen).toEqual({ Leo: all, Mia: all });
      expect(Date.now() - startedAt).toBeLessThanOrEqual(MINUTE);
    },
    2 * MINUTE,
  );
});
