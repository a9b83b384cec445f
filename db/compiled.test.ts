import { describe, expect, it } from "vitest";
import { executeCompiledOnce, executeTemplate } from "./compiled";
import { DIALECTS } from "./index.testing";
import { useDemoFamily } from "./queries/dashboard/dashboard.testing";

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
      const rows = await executeCompiledOnce(trx, JSON.stringify(["test-kid-name", f.leo.profileId]), () =>
        trx.selectFrom("kid_profiles").select("name").where("id", "=", f.leo.profileId),
      );
      expect(rows).toEqual([{ name: "Leo B" }]);
    });
  });

  it("compiles a template once per shape and runs it with each call's values in their places", async () => {
    // Names as the test above left them.
    const { parent_id: parentId, name: mia } = await f.t.db
      .selectFrom("kid_profiles")
      .select(["parent_id", "name"])
      .where("id", "=", f.mia.profileId)
      .executeTakeFirstOrThrow();
    const { name: leo } = await f.t.db
      .selectFrom("kid_profiles")
      .select("name")
      .where("id", "=", f.leo.profileId)
      .executeTakeFirstOrThrow();
    let builds = 0;
    const kids = (v: { parentId: string; name: string }) =>
      executeTemplate(f.t.db, "test-kids-named", v, (s) => {
        builds++;
        // A fixed value beside the call's: it stays in its place.
        return f.t.db
          .selectFrom("kid_profiles")
          .select(["name"])
          .where("parent_id", "=", s.parentId)
          .where("name", "=", s.name)
          .where("name", "!=", "nobody")
          .orderBy("name");
      });
    expect(await kids({ parentId, name: mia })).toEqual([{ name: mia }]);
    expect(await kids({ parentId, name: leo })).toEqual([{ name: leo }]);
    expect(await kids({ parentId: "someone-else", name: mia })).toEqual([]);
    expect(builds).toBe(1);
    // An insert of a whole row, nulls among the values; read back as written.
    const row = (id: string, name: string) => ({ id, name });
    const insert = (r: Record<string, unknown>) =>
      executeTemplate(f.t.db, "test-kid-insert", r, (s) => f.t.db.insertInto("kid_profiles").values(s as never));
    const before = await f.t.db.selectFrom("kid_profiles").selectAll().where("id", "=", f.mia.profileId).executeTakeFirstOrThrow();
    expect(Object.values(before)).toContain(null);
    await insert({ ...before, ...row("tpl-kid-1", "Ada") });
    await insert({ ...before, ...row("tpl-kid-2", "Bea") });
    const added = await f.t.db.selectFrom("kid_profiles").selectAll().where("id", "in", ["tpl-kid-1", "tpl-kid-2"]).orderBy("id").execute();
    expect(added).toEqual([
      { ...before, ...row("tpl-kid-1", "Ada") },
      { ...before, ...row("tpl-kid-2", "Bea") },
    ]);
  });

  it("refuses a build that looks at a value instead of passing it on (the SQL would change with it)", async () => {
    await expect(
      executeTemplate(f.t.db, "test-looks", { name: "Mia" }, (s) =>
        f.t.db.selectFrom("kid_profiles").select("name").where("name", "=", String(s.name)),
      ),
    ).rejects.toThrow(/name did not reach the query's parameters/);
  });
});
