import { sql } from "kysely";
import type { DB } from "../../db/index";
import type { SimulatedPhone } from "./phone";

// ---- requests (issue 14): now and then a demo kid asks for more time on an app or for a new app ----

/** One request every this many usage ticks (a tick a minute: every half hour). */
export const DEMO_REQUEST_EVERY_TICKS = 30;
/** A demo phone does not ask again while this many of its requests wait for an answer. */
export const DEMO_MAX_PENDING_REQUESTS = 2;

const REMARKS = { extend: "Can I have a bit longer? I'm nearly done.", install: "Can I have this for school?" } as const;

/**
 * A reporter for startDemoPhones: in turn, an extend-time request (30 minutes) on an app the kid uses and an
 * install request for a catalogue app the phone lacks. Resolves once the server stored the request.
 */
export function demoRequests(db: DB, phone: SimulatedPhone, deviceId: string, used: string[], offset: number) {
  let tick = offset;
  let turn = 0;
  return async () => {
    if (!phone.connected || tick++ % DEMO_REQUEST_EVERY_TICKS !== 0) return;
    const waiting = await db
      .selectFrom("app_requests")
      .select(sql<number>`count(*)`.as("n"))
      .where("device_id", "=", deviceId)
      .where("status", "=", "Pending")
      .executeTakeFirstOrThrow();
    if (Number(waiting.n) >= DEMO_MAX_PENDING_REQUESTS) return;
    if (turn++ % 2 === 0 && used.length) {
      await phone.requests.ask("extend", used[turn % used.length]!, { minutes: 30, remarks: REMARKS.extend });
      return;
    }
    const wanted = await db
      .selectFrom("catalog_apps")
      .select("package_name")
      .where("free", "=", 1)
      .where("is_system_app", "=", 0)
      .where("package_name", "not in", db.selectFrom("profile_apps").select("package_name").where("device_id", "=", deviceId))
      .orderBy("package_name")
      .limit(5)
      .execute();
    const pick = wanted[turn % Math.max(1, wanted.length)];
    if (pick) await phone.requests.ask("install", pick.package_name, { remarks: REMARKS.install });
  };
}
