import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "#db/index.testing";
import { createParent } from "#db/queries/parents";
import { upsertPayment } from "#db/queries/payments";
import { createSession } from "#db/queries/sessions";
import { parseEnv } from "#core/env.server";
import { loader } from "./_app.payment-history";

process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.DATA_DIR ??= "/tmp/kids-portal-payment-history-test";

describe("payment history page", () => {
  let t: TestDb;
  let context: AppLoadContext;
  let token: string;
  let emptyToken: string;

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    const env = parseEnv({
      NODE_ENV: "test",
      DATA_DIR: "/tmp/kids-portal-payment-history-test",
      SESSION_SECRET: "x".repeat(40),
      SHOP_URL: "https://shop.example/",
    });
    context = { services: { env, db: t.db, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
    const p = await createParent(t.db, { email: "history@example.com", name: "H", passwordHash: "x" });
    const q = await createParent(t.db, { email: "history-empty@example.com", name: "E", passwordHash: "x" });
    token = await createSession(t.db, p.id, { idleMinutes: 60, absoluteDays: 1 });
    emptyToken = await createSession(t.db, q.id, { idleMinutes: 60, absoluteDays: 1 });
    for (let i = 0; i < 11; i++) {
      await upsertPayment(t.db, {
        parent_id: p.id,
        product_name: `Month ${i}`,
        unit_amount: 499,
        status: "Success",
        created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        expiry_at: i === 0 ? "2020-01-01T00:00:00.000Z" : "2099-01-01T00:00:00.000Z",
        subscription_code: `C${i}`,
      });
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const get = async (qs: string, tok = token) =>
    (await (
      (await loader({
        request: new Request(`http://localhost/payment-history${qs}`, { headers: { Authorization: `Bearer ${tok}` } }),
        context: { ...context },
        params: {},
      })) as Response
    ).json()) as {
      payments: { productName: string; expired: boolean }[];
      page: number;
      pages: number;
      shopUrl: string;
    };

  it("pages newest first, ten a page; a bad page number reads as the first page", async () => {
    const first = await get("");
    expect(first).toMatchObject({ page: 1, pages: 2 });
    expect(first.payments).toHaveLength(10);
    expect(first.payments[0]!.productName).toBe("Month 10");
    const second = await get("?page=2");
    expect(second.payments.map((p) => [p.productName, p.expired])).toEqual([["Month 0", true]]);
    expect((await get("?page=abc")).page).toBe(1);
    expect((await get("?page=-3")).page).toBe(1);
  });

  it("an empty history carries the shop address for the how-to-buy message", async () => {
    expect(await get("", emptyToken)).toMatchObject({ payments: [], pages: 1, shopUrl: "https://shop.example/" });
  });
});
