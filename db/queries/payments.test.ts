import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../index.testing";
import { createParent } from "./parents";
import {
  addPaymentMethod,
  claimStripeEvent,
  deletePaymentMethod,
  listPaymentMethods,
  listPayments,
  parentOfStripeCustomer,
  releaseStripeEvent,
  saveStripeCustomerId,
  setDefaultPaymentMethod,
  upsertPayment,
} from "./payments";

const card = (last4: string) => ({
  brand: "visa",
  last4,
  exp_month: 12,
  exp_year: 2030,
  billing_name: "Jo",
  billing_email: "jo@example.com",
});

describe.each(DIALECTS)("payments queries on %s", (dialect) => {
  let t: TestDb;
  let a: string;
  let b: string;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    a = (await createParent(t.db, { email: "pay-a@example.com", name: "A", passwordHash: "x" })).id;
    b = (await createParent(t.db, { email: "pay-b@example.com", name: "B", passwordHash: "x" })).id;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("first card is the default; Mark As Default moves the star; another parent's card id is refused", async () => {
    const first = await addPaymentMethod(t.db, a, card("4242"), new Date("2026-01-01T00:00:00Z"));
    const second = await addPaymentMethod(t.db, a, card("1881"), new Date("2026-01-02T00:00:00Z"));
    const theirs = await addPaymentMethod(t.db, b, card("0005"));
    expect(first.is_default).toBe(1);
    expect(second.is_default).toBe(0);
    expect((await listPaymentMethods(t.db, a)).map((c) => [c.last4, c.is_default])).toEqual([
      ["4242", 1],
      ["1881", 0],
    ]);
    expect(await setDefaultPaymentMethod(t.db, a, theirs.id)).toBe(false);
    expect(await deletePaymentMethod(t.db, a, theirs.id)).toBe("not-found");
    expect((await listPaymentMethods(t.db, b)).map((c) => [c.last4, c.is_default])).toEqual([["0005", 1]]);

    expect(await setDefaultPaymentMethod(t.db, a, second.id)).toBe(true);
    expect((await listPaymentMethods(t.db, a)).map((c) => [c.last4, c.is_default])).toEqual([
      ["1881", 1],
      ["4242", 0],
    ]);
    expect(await deletePaymentMethod(t.db, a, second.id)).toBe("default");
    expect(await deletePaymentMethod(t.db, a, first.id)).toBe("deleted");
    expect((await listPaymentMethods(t.db, a)).map((c) => c.last4)).toEqual(["1881"]);
  });

  it("history: newest first, paged, per parent; a provider_ref written twice updates in place", async () => {
    for (let i = 0; i < 12; i++) {
      await upsertPayment(t.db, {
        parent_id: a,
        product_name: `P${i}`,
        unit_amount: 499,
        status: "Success",
        created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      });
    }
    await upsertPayment(t.db, {
      parent_id: b,
      product_name: "Other",
      unit_amount: 1,
      status: "Success",
      created_at: "2026-02-01T00:00:00.000Z",
    });
    const p1 = await listPayments(t.db, a, 1, 10);
    expect(p1.total).toBe(12);
    expect(p1.rows.map((r) => r.product_name).slice(0, 2)).toEqual(["P11", "P10"]);
    expect((await listPayments(t.db, a, 2, 10)).rows.map((r) => r.product_name)).toEqual(["P1", "P0"]);

    const inv = {
      parent_id: b,
      provider_ref: "in_1",
      product_name: "Monthly",
      unit_amount: 499,
      status: "Fail" as const,
      created_at: "2026-03-01T00:00:00.000Z",
    };
    await upsertPayment(t.db, inv);
    await upsertPayment(t.db, { ...inv, status: "Success" });
    const rows = (await listPayments(t.db, b)).rows.filter((r) => r.provider_ref === "in_1");
    expect(rows.map((r) => r.status)).toEqual(["Success"]);
  });

  it("one Stripe customer per parent; event ids are claimed once and can be released", async () => {
    expect(await saveStripeCustomerId(t.db, a, "cus_A")).toBe("cus_A");
    expect(await saveStripeCustomerId(t.db, a, "cus_A2")).toBe("cus_A");
    expect(await parentOfStripeCustomer(t.db, "cus_A")).toBe(a);
    expect(await parentOfStripeCustomer(t.db, "cus_none")).toBeNull();
    expect(await claimStripeEvent(t.db, "evt_1", "invoice.paid")).toBe(true);
    expect(await claimStripeEvent(t.db, "evt_1", "invoice.paid")).toBe(false);
    await releaseStripeEvent(t.db, "evt_1");
    expect(await claimStripeEvent(t.db, "evt_1", "invoice.paid")).toBe(true);
  });
});
