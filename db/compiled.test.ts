import { describe, expect, it } from "vitest";
import { executeCompiledOnce } from "./compiled";
import { DIALECTS } from "./testing";
import { useDemoFamily } from "./queries/dashboard/testing";

describe.each(DIALECTS)("queries compiled once per key on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("builds a key's query once, runs it anew every time (fresh rows), and keeps keys apart", async () => {
    let builds = 0;
    const nameOf = (id: string) =>
      executeCompiledOnce(f.t.db, JSON.stringify(["test-kid-name", id]), () => {
        builds++;
        return f.t.db.selectFrom("kid_profiles").select("name").where("id", "=", id);
      });
    expect(await nameOf(f.mia.profileId)).toEqual([{ name: "Mia" }]);
    await f.t.db.updateTable("kid_profiles").set({ name: "Mia B" }).where("id", "=", f.mia.profileId).execute();
    expect(await nameOf(f.mia.profileId)).toEqual([{ name: "Mia B" }]);
    expect(builds).toBe(1);
    expect(await nameOf(f.leo.profileId)).toEqual([{ name: "Leo" }]);
    expect(builds).toBe(2);
    // Inside a transaction the query runs on the transaction's connection (its own compiled entry).
    await f.t.db.transaction().execute(async (trx) => {
      await trx.updateTable("kid_profiles").set({ name: "Leo B" }).where("id", "=", f.leo.profileId).execute();
      const rows = await executeCompiledOnce(trx, JSON.stringify(["test-kid-name", f.leo.profileId]), () => trx.selectFrom("kid_profiles").select("name").where("id", "=", f.leo.profileId));
      expect(rows).toEqual([{ name: "Leo B" }]);
    });
  });
});
