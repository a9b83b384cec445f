import { describe, expect, it } from "vitest";
import { newId } from "../../../core/ids.server";
import { DIALECTS } from "../../index.testing";
import { NOW, useDemoFamily } from "../dashboard/dashboard.testing";
import { upsertWebFilterCategories } from "./categories";
import { loadFilterPolicyRows } from "./policy-rows";
import {
  ensureFilterId,
  ensureFilterIdsForAllKids,
  FILTER_ID_PATTERN,
  findKidByFilterId,
  newFilterId,
  readWebFilterSettings,
  renewFilterId,
  revokeFilterId,
  updateWebFilterSettings,
} from "./settings";

describe("newFilterId", () => {
  it("is 20 of [a-z0-9], and differs each time", () => {
    const ids = new Set(Array.from({ length: 200 }, newFilterId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{20}$/);
  });
});

describe.each(DIALECTS)("a kid's web filter settings on %s", (dialect) => {
  const f = useDemoFamily(dialect);
  const CATEGORIES = [
    { id: "social-networks", name: "Social networks", description: "Feeds.", sort: 0 },
    { id: "gambling", name: "Gambling", description: "Bets.", sort: 1 },
  ];
  const schedule = async (profileId: string, name: string) => {
    const id = newId();
    await f.t.db
      .insertInto("kid_schedules")
      .values({
        id,
        profile_id: profileId,
        name,
        days: "[0,1,2,3,4]",
        start_minute: 480,
        end_minute: 900,
        blocks_all: 0,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      })
      .execute();
    return id;
  };

  it("has defaults before anything is saved, and no filter id", async () => {
    expect(await readWebFilterSettings(f.t.db, f.leo.profileId)).toEqual({
      filterId: null,
      safeSearch: false,
      youtube: "off",
      allowList: [],
      blockedCategories: [],
    });
    expect(await loadFilterPolicyRows(f.t.db, f.leo.profileId)).toEqual([]);
  });

  it("ensures one filter id per kid, finds the kid by it, and a revoked id is refused and replaced", async () => {
    const id = await ensureFilterId(f.t.db, f.mia.profileId, NOW);
    expect(id).toMatch(FILTER_ID_PATTERN);
    expect(await ensureFilterId(f.t.db, f.mia.profileId, NOW)).toBe(id);
    expect(await findKidByFilterId(f.t.db, id)).toBe(f.mia.profileId);
    expect(await findKidByFilterId(f.t.db, "nosuchfilterid000000")).toBeUndefined();
    expect(await findKidByFilterId(f.t.db, "'; drop table x")).toBeUndefined();

    await revokeFilterId(f.t.db, f.mia.profileId, NOW);
    expect(await findKidByFilterId(f.t.db, id)).toBeUndefined();
    expect((await readWebFilterSettings(f.t.db, f.mia.profileId)).filterId).toBeNull();
    expect(await loadFilterPolicyRows(f.t.db, f.mia.profileId)).toEqual([]);

    await updateWebFilterSettings(f.t.db, f.mia.profileId, { safeSearch: true }, NOW);
    expect((await readWebFilterSettings(f.t.db, f.mia.profileId)).filterId, "saving does not give a new id").toBeNull();

    const next = await ensureFilterId(f.t.db, f.mia.profileId, NOW);
    expect(next).not.toBe(id);
    expect(await findKidByFilterId(f.t.db, next)).toBe(f.mia.profileId);
    expect(await findKidByFilterId(f.t.db, id)).toBeUndefined();
  });

  it("renews a kid's filter id (a phone replaced or removed): the old one refused, a new one live, the settings kept; none made for a kid without one", async () => {
    const old = await ensureFilterId(f.t.db, f.mia.profileId, NOW);
    await updateWebFilterSettings(f.t.db, f.mia.profileId, { safeSearch: true }, NOW);
    const renewed = await f.t.db.transaction().execute((trx) => renewFilterId(trx, f.mia.profileId, NOW));
    expect(renewed).toMatch(FILTER_ID_PATTERN);
    expect(renewed).not.toBe(old);
    expect(await findKidByFilterId(f.t.db, old)).toBeUndefined();
    expect(await findKidByFilterId(f.t.db, renewed!)).toBe(f.mia.profileId);
    expect(await readWebFilterSettings(f.t.db, f.mia.profileId)).toMatchObject({ filterId: renewed, safeSearch: true });

    expect(await renewFilterId(f.t.db, f.leo.profileId, NOW)).toBeNull();
    expect(await f.t.db.selectFrom("web_filter_settings").select("filter_id").where("profile_id", "=", f.leo.profileId).execute()).toEqual(
      [],
    );
  });

  it("saves the switches, the allow list and the blocked categories with their schedules, and loads them for the policy", async () => {
    await upsertWebFilterCategories(f.t.db, CATEGORIES, NOW.toISOString());
    const school = await schedule(f.mia.profileId, "School time");
    await updateWebFilterSettings(
      f.t.db,
      f.mia.profileId,
      {
        safeSearch: true,
        youtube: "strict",
        allowList: [" Khanacademy.org. ", "wikipedia.org", "wikipedia.org"],
        blockedCategories: [
          { categoryId: "gambling", scheduleId: null },
          { categoryId: "social-networks", scheduleId: school },
        ],
      },
      NOW,
    );
    const saved = await readWebFilterSettings(f.t.db, f.mia.profileId);
    expect(saved).toEqual({
      filterId: expect.stringMatching(FILTER_ID_PATTERN),
      safeSearch: true,
      youtube: "strict",
      allowList: ["khanacademy.org", "wikipedia.org"],
      blockedCategories: [
        { categoryId: "gambling", scheduleId: null },
        { categoryId: "social-networks", scheduleId: school },
      ],
    });

    // Only what is given changes.
    await updateWebFilterSettings(f.t.db, f.mia.profileId, { safeSearch: false }, NOW);
    expect(await readWebFilterSettings(f.t.db, f.mia.profileId)).toEqual({ ...saved, safeSearch: false });

    const [row] = await loadFilterPolicyRows(f.t.db, f.mia.profileId);
    expect(row).toMatchObject({
      profileId: f.mia.profileId,
      filterId: saved.filterId,
      timeZone: expect.any(String),
      safeSearch: false,
      youtube: "strict",
      allowList: ["khanacademy.org", "wikipedia.org"],
      categories: [
        { categoryId: "gambling", schedule: null },
        { categoryId: "social-networks", schedule: { days: [0, 1, 2, 3, 4], start: 480, end: 900 } },
      ],
    });
    expect((await loadFilterPolicyRows(f.t.db)).map((r) => r.profileId)).toContain(f.mia.profileId);

    // A deleted schedule leaves its category blocked always (fail closed).
    await f.t.db.deleteFrom("kid_schedules").where("id", "=", school).execute();
    const [after] = await loadFilterPolicyRows(f.t.db, f.mia.profileId);
    expect(after.categories).toEqual([
      { categoryId: "gambling", schedule: null },
      { categoryId: "social-networks", schedule: null },
    ]);
  });

  it("refuses another kid's schedule and saves nothing", async () => {
    await upsertWebFilterCategories(f.t.db, CATEGORIES, NOW.toISOString());
    const leos = await schedule(f.leo.profileId, "Leo's school");
    await expect(
      updateWebFilterSettings(f.t.db, f.mia.profileId, { blockedCategories: [{ categoryId: "gambling", scheduleId: leos }] }, NOW),
    ).rejects.toThrow(/kid's schedules/);
    expect((await readWebFilterSettings(f.t.db, f.mia.profileId)).blockedCategories).not.toContainEqual({
      categoryId: "gambling",
      scheduleId: leos,
    });
  });

  it("loads the kid's /browser-logs blocked entries of every phone of the kid", async () => {
    await ensureFilterId(f.t.db, f.leo.profileId, NOW);
    const entry = (url: string, blocked: number) => ({
      id: newId(),
      device_id: f.leo.deviceId,
      url,
      day: "2026-11-21",
      is_blocked: blocked,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    await f.t.db
      .insertInto("browser_logs")
      .values([entry("tiktok.test", 1), entry("visited.test", 0)])
      .execute();
    const [row] = await loadFilterPolicyRows(f.t.db, f.leo.profileId);
    expect(row.blockedUrls).toContain("tiktok.test");
    expect(row.blockedUrls).not.toContain("visited.test");
  });

  it("gives every kid a live filter id at start-up: in batches, a revoked one anew, and the same ids on a second run", async () => {
    const live = async () =>
      new Map(
        (await f.t.db.selectFrom("web_filter_settings").select(["profile_id", "filter_id"]).where("revoked_at", "is", null).execute()).map(
          (r) => [r.profile_id, r.filter_id],
        ),
      );
    const revoked = await ensureFilterId(f.t.db, f.mia.profileId, NOW);
    await revokeFilterId(f.t.db, f.mia.profileId, NOW);
    const kids = (await f.t.db.selectFrom("kid_profiles").select("id").execute()).map((k) => k.id);
    const before = await live();
    expect(before.has(f.mia.profileId)).toBe(false);
    expect(await ensureFilterIdsForAllKids(f.t.db, NOW, 1)).toBe(kids.filter((k) => !before.has(k)).length);
    const first = await live();
    expect([...first.keys()].sort()).toEqual([...kids].sort());
    for (const id of first.values()) expect(id).toMatch(FILTER_ID_PATTERN);
    expect(first.get(f.mia.profileId)).not.toBe(revoked);
    expect(await ensureFilterIdsForAllKids(f.t.db, NOW)).toBe(0);
    expect(await live()).toEqual(first);
  });
});
