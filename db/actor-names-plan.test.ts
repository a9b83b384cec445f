import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "./index.testing";

/**
 * A parent's rename moves the revisions of the kids of every delegation they accepted (the actor-names trigger):
 * those delegations are found by `responded_by` through its index, not by reading every delegation.
 */
const KIDS_OF_ACCEPTED =
  "SELECT dk.profile_id FROM delegation_kids dk JOIN delegations d ON d.id = dk.delegation_id WHERE d.responded_by = 'some-parent'";

describe.each(DIALECTS)("the actor-names trigger's delegation lookup on %s", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("finds the delegations a parent accepted by the responded_by index", async () => {
    let plan: string;
    if (dialect === "sqlite") {
      const rows = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${KIDS_OF_ACCEPTED}`).execute(t.db);
      plan = rows.rows.map((r) => r.detail).join("\n");
    } else {
      // The test tables are empty, where a scan is cheapest whatever the indexes; with scans priced out, the plan shows
      // whether an index can answer at all.
      plan = await t.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const rows = await sql.raw<{ "QUERY PLAN": string }>(`EXPLAIN ${KIDS_OF_ACCEPTED}`).execute(trx);
        return rows.rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
    }
    expect(plan).toContain("delegations_responded_by_idx");
  });
});
