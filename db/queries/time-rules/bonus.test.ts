import { describe, expect, it } from "vitest";
import { newId } from "../../../core/ids.server";
import { DIALECTS } from "../../index.testing";
import { NOW, useDemoFamily } from "../dashboard/dashboard.testing";
import { bonusOnDay, bonusOnLocalToday } from "./bonus";

describe.each(DIALECTS)("today's bonus in the family's zone on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  // NOW is 2026-11-21T18:30Z: the 21st in UTC and New York, already the 22nd in Kiritimati (UTC+14); the 20th never
  // is today anywhere, but its grants are read (one round trip for the zone and the three candidate days).
  it("reads the zone and the grants at once, and keeps only the kid's local day", async () => {
    const grant = (day: string, minutes: number, scope: "phone" | "app" = "phone", target = "") => ({
      id: newId(),
      profile_id: f.mia.profileId,
      scope,
      target,
      day,
      minutes,
      granted_by: null,
      created_at: NOW.toISOString(),
    });
    await f.t.db
      .insertInto("bonus_grants")
      .values([
        grant("2026-11-20", 5),
        grant("2026-11-21", 10),
        grant("2026-11-21", 15),
        grant("2026-11-21", 20, "app", "com.duolingo"),
        grant("2026-11-22", 40),
      ])
      .execute();
    const parentId = (
      await f.t.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", f.mia.profileId).executeTakeFirstOrThrow()
    ).parent_id;
    const inZone = async (zone: string) => {
      await f.t.db.updateTable("parents").set({ time_zone: zone }).where("id", "=", parentId).execute();
      return bonusOnLocalToday(f.t.db, f.mia.profileId, NOW);
    };
    const on21 = [
      { scope: "app", target: "com.duolingo", minutes: 20 },
      { scope: "phone", target: "", minutes: 25 },
    ];
    expect(await inZone("America/New_York")).toEqual(on21);
    expect(await inZone("Pacific/Kiritimati")).toEqual([{ scope: "phone", target: "", minutes: 40 }]);
    expect(await inZone("UTC")).toEqual(on21);
    // The same totals as the one-day read of that day.
    expect(await inZone("UTC")).toEqual(await bonusOnDay(f.t.db, f.mia.profileId, "2026-11-21"));
    // Another kid's grants never count.
    expect(await bonusOnLocalToday(f.t.db, f.leo.profileId, NOW)).toEqual([]);
  });
});
