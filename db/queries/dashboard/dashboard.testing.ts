import { afterAll, beforeAll } from "vitest";
import { seedDemo } from "../../seed/index";
import type { Dialect } from "../../index";
import { createTestDb, type TestDb } from "../../index.testing";

export const NOW = new Date("2026-11-21T18:30:00Z");

export interface DemoKid {
  profileId: string;
  deviceId: string;
}

/**
 * The dashboard query tests' fixture: a fresh database of the given dialect seeded with the demo family,
 * and the ids of its kids Mia and Leo. Call it inside `describe`; read the fields inside `it`.
 */
export function useDemoFamily(dialect: Dialect) {
  const fixture = {} as { t: TestDb; mia: DemoKid; leo: DemoKid };
  beforeAll(async () => {
    fixture.t = await createTestDb(dialect);
    await seedDemo(fixture.t.db, NOW);
    const rows = await fixture.t.db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.id", "devices.profile_id", "kid_profiles.name"])
      .execute();
    const by = (n: string) => rows.find((r) => r.name === n)!;
    fixture.mia = { profileId: by("Mia").profile_id, deviceId: by("Mia").id };
    fixture.leo = { profileId: by("Leo").profile_id, deviceId: by("Leo").id };
  });
  afterAll(async () => {
    await fixture.t?.destroy();
  });
  return fixture;
}
