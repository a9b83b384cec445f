import { AsyncLocalStorage } from "node:async_hooks";
import SQLite from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "#db/index.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as dashboard from "./_app.kids-device";

const MIA = "DEMO-MIA-0001";

/**
 * Every statement a call runs, on either driver, as its SQL text: PostgreSQL's `Client.query` and better-sqlite3's
 * statement runs are recorded only inside `run`'s own async context, so the harness's background work never counts.
 */
const calls = new AsyncLocalStorage<string[]>();
const pgQuery = pg.Client.prototype.query as (...a: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (this: pg.Client, ...a: unknown[]) {
  const q = a[0] as string | { text?: string };
  calls.getStore()?.push(typeof q === "string" ? q : (q?.text ?? ""));
  return pgQuery.apply(this, a);
};
const scratch = new SQLite(":memory:");
const statement = Object.getPrototypeOf(scratch.prepare("select 1")) as Record<string, (...a: unknown[]) => unknown>;
scratch.close();
for (const method of ["all", "get", "run", "iterate"]) {
  const original = statement[method];
  statement[method] = function (this: { source: string }, ...a: unknown[]) {
    calls.getStore()?.push(this.source);
    return original.apply(this, a);
  };
}
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  await calls.run(seen, run);
  return seen;
}

/** Issue 22: the dashboard's full render reads each thing once (a repeated read is a statement more a render). */
describe.each(DIALECTS)("the dashboard's reads on %s", (dialect) => {
  let rh: RouteHarness;
  beforeAll(async () => {
    rh = await startRouteHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  it("the newest policies once (acknowledgements and explanations), category names with the apps, the family's zone with the kid", async () => {
    const mia = await rh.h.kid(MIA);
    // The week: the seed's usage is there at any hour (today's is empty just after the family's midnight).
    const url = `/kids-device?profileId=${mia.profileId}&filter=week`;
    let res: Response | undefined;
    const sqls = await statementsOf(async () => {
      res = await rh.call(dashboard.loader, url);
    });
    expect(res?.status).toBe(200);
    const data = (await res!.json()) as { state: string; usage: { apps: { categoryName: string }[] } };
    expect(data.state).toBe("dashboard");
    expect(data.usage.apps.length).toBeGreaterThan(0);
    const reading = (table: string) => sqls.filter((s) => new RegExp(`from "${table}"`).test(s)).length;
    expect(reading("device_policies"), sqls.join("\n")).toBe(1);
    expect(reading("store_categories"), sqls.join("\n")).toBe(0);
    expect(sqls.filter((s) => s.includes('"time_zone"')).length, sqls.join("\n")).toBe(1);
    // The names are still the store's: an app of a named category shows the category's name, not its id.
    const named = await rh.h.tdb.db.selectFrom("store_categories").select(["id", "name"]).execute();
    const names = new Set(named.map((n) => n.name));
    expect(data.usage.apps.some((a) => names.has(a.categoryName))).toBe(true);
  });
});
