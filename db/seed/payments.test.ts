import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../index.testing";
import { findParentByEmail } from "../queries/parents";
import { listPaymentMethods, listPayments } from "../queries/payments";
import { DEMO_LOGIN, seedDemo } from "./index";

describe.each(DIALECTS)("demo family's payments on %s", (dialect) => {
  let t: TestDb;
  const now = new Date("2026-11-23T12:00:00Z");
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db, now);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("has a trial, a paid month, a failed payment, a used and an expired subscription code, and two cards", async () => {
    const parent = (await findParentByEmail(t.db, DEMO_LOGIN.email))!;
    const { rows } = await listPayments(t.db, parent.id);
    expect(rows.some((r) => r.is_trial === 1 && r.unit_amount === 0)).toBe(true);
    expect(rows.some((r) => !r.is_trial && r.status === "Success" && r.unit_amount === 499)).toBe(true);
    expect(rows.some((r) => r.status === "Fail")).toBe(true);
    expect(rows.some((r) => r.subscription_code && r.subscription_code_used === 1)).toBe(true);
    expect(rows.some((r) => r.subscription_code && r.subscription_code_used === 0 && Date.parse(r.expiry_at!) < now.getTime())).toBe(true);
    expect(rows[0]!.status).toBe("Fail"); // newest first
    const cards = await listPaymentMethods(t.db, parent.id);
    expect(cards.map((c) => [c.brand, c.last4, c.is_default])).toEqual([
      ["visa", "4242", 1],
      ["mastercard", "4444", 0],
    ]);
  });
});
