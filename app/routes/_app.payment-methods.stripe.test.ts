import type { AppLoadContext } from "@remix-run/node";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "#db/index.testing";
import { createParent } from "#db/queries/parents";
import { listPaymentMethods } from "#db/queries/payments";
import { createSession } from "#db/queries/sessions";
import { DOUBLE_SECRET_KEY, startStripeDouble, type StripeDouble } from "../payments/stripe-double.testing";
import { parseEnv } from "#core/env.server";
import { action, loader } from "./_app.payment-methods";
import { action as webhook } from "./webhooks.stripe";

process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.DATA_DIR ??= "/tmp/kids-portal-payments-stripe-test";

// The card page and the webhook route in Stripe mode, against the local double of Stripe's API.
describe("payment methods page (Stripe mode)", () => {
  let t: TestDb;
  let double: StripeDouble;
  let context: AppLoadContext;
  let token: string;
  const logs: string[] = [];
  const WHSEC = "whsec_route_test";

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    double = await startStripeDouble();
    const env = parseEnv({
      NODE_ENV: "test",
      DATA_DIR: "/tmp/kids-portal-payments-stripe-test",
      SESSION_SECRET: "x".repeat(40),
      PUBLIC_URL: "https://portal.example",
      PAYMENTS_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: DOUBLE_SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: "pk_test_double",
      STRIPE_WEBHOOK_SECRET: WHSEC,
      STRIPE_API_BASE: double.url,
    });
    const log = (level: string, msg: string, extra?: Record<string, unknown>) => void logs.push(JSON.stringify({ level, msg, ...extra }));
    context = { services: { env, db: t.db, log }, cspNonce: "n" } as unknown as AppLoadContext;
    const p = await createParent(t.db, { email: "stripe-route@example.com", name: "Robin", passwordHash: "x" });
    token = await createSession(t.db, p.id, { idleMinutes: 60, absoluteDays: 1 });
  });
  afterAll(async () => {
    await double?.close();
    await t?.destroy();
  });

  const post = (fields: Record<string, string>) =>
    action({
      request: new Request("http://localhost/payment-methods", {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Authorization: `Bearer ${token}` },
      }),
      context: { ...context },
      params: {},
    }) as Promise<Response>;
  const get = (qs = "") =>
    loader({
      request: new Request(`http://localhost/payment-methods${qs}`, { headers: { Authorization: `Bearer ${token}` } }),
      context: { ...context },
      params: {},
    }) as Promise<Response>;

  it("a card number posted to our server in Stripe mode is refused and goes nowhere", async () => {
    double.calls.length = 0;
    const res = await post({
      intent: "add",
      card_name: "Robin",
      number: "4242424242424242",
      exp_month: "12",
      exp_year: "2031",
      cvc: "123",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/payment-methods");
    expect(double.calls).toEqual([]);
    expect(await t.db.selectFrom("payment_methods").selectAll().execute()).toEqual([]);
  });

  it("with JavaScript: a SetupIntent's client secret for the Payment Element", async () => {
    const res = await post({ intent: "setup-intent" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { clientSecret: string }).clientSecret).toMatch(/_secret_/);
  });

  it("without JavaScript: Checkout in setup mode, there and back; the card is attached and becomes the default", async () => {
    const res = await post({ intent: "checkout" });
    expect(res.status).toBe(302);
    const to = res.headers.get("location")!;
    expect(to).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/cs_test_/);
    const session = [...double.sessions.values()].at(-1)!;
    expect(session.params.success_url).toBe("https://portal.example/payment-methods?checkout_session={CHECKOUT_SESSION_ID}");
    double.pms.set("pm_route", {
      id: "pm_route",
      customer: session.customer,
      brand: "visa",
      last4: "4242",
      exp_month: 12,
      exp_year: 2031,
      name: "Robin",
    });
    Object.assign(double.setupIntents.get(session.setup_intent)!, { status: "succeeded", payment_method: "pm_route" });
    const back = await get(`?checkout_session=${session.id}`).catch((r: Response) => r);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/payment-methods");
    expect(back.headers.get("set-cookie")).toContain("kp_toast=");
    const page = (await (await get()).json()) as { kind: string; cards: { id: string; isDefault: boolean; last4: string }[] };
    expect(page.kind).toBe("stripe");
    expect(page.cards).toMatchObject([{ id: "pm_route", isDefault: true, last4: "4242" }]);
    // The local table stays empty: Stripe holds the cards.
    expect(await listPaymentMethods(t.db, (await t.db.selectFrom("parents").select("id").executeTakeFirstOrThrow()).id)).toEqual([]);
  });

  it("when Stripe cannot be reached, the page says so plainly instead of failing", async () => {
    double.failNext.set("GET /v1/payment_methods", { status: 500, error: { type: "api_error", message: "boom" } });
    const page = (await (await get()).json()) as { unavailable: boolean; cards: unknown[] };
    expect(page).toMatchObject({ unavailable: true, cards: [] });
  });

  it("the webhook route checks Stripe's signature over the raw body and processes an event id once", async () => {
    const payload = JSON.stringify({
      id: "evt_route",
      object: "event",
      type: "invoice.paid",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "in_x", object: "invoice", customer: "cus_unknown" } },
    });
    const hook = (body: string, signature?: string) =>
      webhook({
        request: new Request("http://localhost/webhooks/stripe", {
          method: "POST",
          body,
          headers: signature ? { "Stripe-Signature": signature, "Content-Type": "application/json" } : {},
        }),
        context: { ...context },
        params: {},
      }) as Promise<Response>;
    expect((await hook(payload)).status).toBe(400);
    expect((await hook(payload, "t=1,v1=00")).status).toBe(400);
    const header = new Stripe("sk_unused").webhooks.generateTestHeaderString({ payload, secret: WHSEC });
    const first = await hook(payload, header);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, message: "Processed." });
    expect(await (await hook(payload, header)).json()).toEqual({ received: true, message: "Already processed." });
  });
});
