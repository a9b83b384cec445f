import type { DB } from "../index";
import { newId, nowIso } from "../../core/ids.server";
import type { AppRequestType } from "../schema-device-service";
import { createSchedule } from "../queries/time-rules/schedules";
import { KIDS_APP_PACKAGE } from "./catalog";

/**
 * What the --big data set holds beside usage, so the pages that list it render real content (issue 22 item 4):
 * pending requests from each phone (installs of catalogue apps it does not have, uninstalls and time extensions
 * of apps it has) and each kid's schedules (bedtime, school time, homework). Deterministic: the same apps, types,
 * times and remarks for the same data set. Run once: a family that already has requests is left as it is, so an
 * earlier --big set is brought up to date without being seeded again. (Its weekly reports are built by the report
 * job itself over the seeded usage: bench/page-bench.ts.)
 */

/** Pending requests per phone: a few screens of them, as a kid asks over a week. */
export const BIG_REQUESTS_PER_KID = 24;

const REMARKS = [
  "Everyone in my class has it",
  "For homework please",
  null,
  "Can I have 15 more minutes? I'm nearly done",
  "It's for the school project",
  null,
];

export async function seedBigExtras(db: DB, parentId: string, now: Date = new Date()): Promise<boolean> {
  const kids = await db
    .selectFrom("kid_profiles as k")
    .innerJoin("devices as d", "d.profile_id", "k.id")
    .select(["k.id as profileId", "d.id as deviceId"])
    .where("k.parent_id", "=", parentId)
    .orderBy("k.name")
    .execute();
  if (kids.length === 0) return false;
  const present = await db
    .selectFrom("app_requests")
    .select("id")
    .where(
      "profile_id",
      "in",
      kids.map((k) => k.profileId),
    )
    .limit(1)
    .executeTakeFirst();
  if (present) return false;
  const catalogue = await db
    .selectFrom("catalog_apps")
    .select(["package_name", "is_system_app"])
    .orderBy("reviews", "desc")
    .orderBy("package_name")
    .execute();
  const ts = nowIso(now);
  for (const [k, kid] of kids.entries()) {
    const installed = await db
      .selectFrom("profile_apps")
      .select(["package_name", "enable_daily_limit"])
      .where("device_id", "=", kid.deviceId)
      .where("is_installed", "=", 1)
      .where("package_name", "<>", KIDS_APP_PACKAGE)
      .orderBy("package_name")
      .execute();
    const on = new Set(installed.map((a) => a.package_name));
    const wanted = catalogue.filter((a) => !on.has(a.package_name) && !a.is_system_app && a.package_name !== KIDS_APP_PACKAGE);
    const limited = installed.filter((a) => a.enable_daily_limit === 1);
    const rows = Array.from({ length: BIG_REQUESTS_PER_KID }, (_, i) => {
      const type: AppRequestType = i % 3 === 0 ? "App Install" : i % 3 === 1 ? "Extend Time" : "App Uninstall";
      const pool = type === "App Install" ? wanted : type === "Extend Time" && limited.length ? limited : installed;
      const app = pool[(i * 7 + k * 11) % pool.length]!;
      return {
        id: newId(),
        profile_id: kid.profileId,
        device_id: kid.deviceId,
        package_name: app.package_name,
        request_type: type,
        extended_time: type === "Extend Time" ? 15 * (1 + (i % 3)) : 0,
        remarks: REMARKS[(i + k) % REMARKS.length],
        // Spread over the last week, newest first in the list.
        created_at: new Date(now.getTime() - (i * 7 + k) * 3_600_000).toISOString(),
        updated_at: ts,
        message_id: `big-${k}-${i}`,
      };
    });
    await db.insertInto("app_requests").values(rows).execute();
    const categories = [
      ...new Set(
        (
          await db
            .selectFrom("profile_apps")
            .select("play_store_category")
            .where("device_id", "=", kid.deviceId)
            .orderBy("play_store_category")
            .execute()
        ).map((r) => r.play_store_category),
      ),
    ];
    const week = [0, 1, 2, 3, 4];
    await createSchedule(
      db,
      kid.profileId,
      { name: "Bedtime", days: [...week, 5, 6], start: 20 * 60 + 30, end: 7 * 60, blocksAll: true, categories: [], apps: [] },
      now,
    );
    await createSchedule(
      db,
      kid.profileId,
      {
        name: "School time",
        days: week,
        start: 8 * 60 + 30,
        end: 15 * 60,
        blocksAll: false,
        categories: categories.filter((c) => c !== "EDUCATION").slice(0, 4),
        apps: [],
      },
      now,
    );
    await createSchedule(
      db,
      kid.profileId,
      {
        name: "Homework",
        days: [0, 1, 2, 3],
        start: 17 * 60,
        end: 18 * 60,
        blocksAll: false,
        categories: [],
        apps: installed.slice(k, k + 6).map((a) => a.package_name),
      },
      now,
    );
  }
  return true;
}
