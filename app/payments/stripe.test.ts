import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "#db/index.testing";
import { createParent } from "#db/queries/parents";
import { listPayments, saveStripeCustomerId } from "#db/queries/payments";
import { CARD_NOT_FOUND, DEFAULT_CARD_KEPT, PAYMENTS_UNAVAILABLE, type PayingParent, type StripePayments } from "./provider.server";
import { createStripePayments } from "./stripe.server";
import { DOUBLE_SECRET_KEY, startStripeDouble, type StripeDouble } from "./stripe-double.testing";

const WHSEC = "whsec_test_double_secret";
const signer = new Stripe("sk_test_unused");

function signed(event: Record<string, unknown>, opts: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  return {
    payload,
    header: signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WHSEC, timestamp: opts.timestamp }),
  };
}

describe("Stripe adapter against a local double of the Stripe API", () => {
  let t: TestDb;
  let double: StripeDouble;
  let stripe: StripePayments;
  let alex: PayingParent;
  let other: PayingParent;
  const logs: string[] = [];

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    double = await startStripeDouble();
    const log = (level: string, msg: string, extra?: Record<string, unknown>) => void logs.push(JSON.stringify({ level, msg, ...extra }));
    stripe = createStripePayments({
      db: t.db,
      log,
      config: { secretKey: DOUBLE_SECRET_KEY, publishableKey: "pk_test_double", webhookSecret: WHSEC, apiBase: double.url },
    });
    const a = await createParent(t.db, { email: "alex-stripe@example.com", name: "Alex", passwordHash: "x" });
    const o = await createParent(t.db, { email: "other-stripe@example.com", name: "Other", passwordHash: "x" });
    alex = { id: a.id, email: a.email, name: a.name };
    other = { id: o.id, email: o.email, name: o.name };
  });
  afterAll(async () => {
    await double?.close();
    await t?.destroy();
  });
  beforeEach(() => {
    double.calls.length = 0;
  });

  it("a parent without a Stripe customer has no cards, and no call is made", async () => {
    expect(await stripe.listCards(alex)).toEqual([]);
    expect(double.calls).toEqual([]);
  });

  it("SetupIntent for the Payment Element: one customer per parent, reused", async () => {
    const first = await stripe.createSetupIntent(alex);
    expect(first.ok && first.value.clientSecret).toMatch(/^seti_.*_secret_/);
    const second = await stripe.createSetupIntent(alex);
    expect(second.ok).toBe(true);
    expect(double.calls).toEqual(["POST /v1/customers", "POST /v1/setup_intents", "POST /v1/setup_intents"]);
    expect([...double.customers.values()].map((c) => [c.email, c.metadata.parent_id])).toEqual([[alex.email, alex.id]]);
  });

  it("after the browser confirmed it: the card is attached and becomes the default", async () => {
    const [si] = [...double.setupIntents.values()];
    const customer = si!.customer;
    double.pms.set("pm_visa", {
      id: "pm_visa",
      customer: null,
      brand: "visa",
      last4: "4242",
      exp_month: 12,
      exp_year: 2030,
      name: "Alex Morgan",
      email: alex.email,
      line1: "1 Mall",
      city: "London",
      postal_code: "SW1A 1AA",
      country: "GB",
    });
    Object.assign(si!, { status: "succeeded", payment_method: "pm_visa" });
    expect(await stripe.completeSetup(alex, { setupIntentId: si!.id })).toEqual({ ok: true, value: undefined });
    // Reads may run in parallel: compare as a sorted list.
    expect([...double.calls].sort()).toEqual([
      `GET /v1/customers/${customer}`,
      "GET /v1/payment_methods",
      `GET /v1/setup_intents/${si!.id}`,
      `POST /v1/customers/${customer}`,
      "POST /v1/payment_methods/pm_visa/attach",
    ]);
    const cards = await stripe.listCards(alex);
    expect(cards).toEqual([
      {
        id: "pm_visa",
        brand: "visa",
        last4: "4242",
        exp_month: 12,
        exp_year: 2030,
        isDefault: true,
        billing: {
          name: "Alex Morgan",
          email: alex.email,
          line1: "1 Mall",
          line2: null,
          city: "London",
          postal_code: "SW1A 1AA",
          country: "GB",
        },
      },
    ]);
  });

  it("without JavaScript: a Checkout session in setup mode, then the return attaches a second card (not default)", async () => {
    const r = await stripe.createCheckoutSession(alex, "https://portal.example");
    expect(r.ok && r.value.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const [session] = [...double.sessions.values()];
    expect(session!.params).toMatchObject({
      mode: "setup",
      success_url: "https://portal.example/payment-methods?checkout_session={CHECKOUT_SESSION_ID}",
      cancel_url: "https://portal.example/payment-methods",
    });
    double.pms.set("pm_mc", { id: "pm_mc", customer: session!.customer, brand: "mastercard", last4: "4444", exp_month: 1, exp_year: 2031 });
    Object.assign(double.setupIntents.get(session!.setup_intent)!, { status: "succeeded", payment_method: "pm_mc" });
    expect(await stripe.completeSetup(alex, { checkoutSessionId: session!.id })).toEqual({ ok: true, value: undefined });
    expect(double.calls).not.toContain("POST /v1/payment_methods/pm_mc/attach");
    expect((await stripe.listCards(alex)).map((c) => [c.id, c.isDefault])).toEqual([
      ["pm_visa", true],
      ["pm_mc", false],
    ]);
  });

  it("the same card saved again is refused with a message and taken off again; the cards are unchanged", async () => {
    const customer = [...double.customers.values()][0]!.id;
    const before = await stripe.listCards(alex);
    double.pms.set("pm_visa_again", { id: "pm_visa_again", customer: null, brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 });
    double.setupIntents.set("seti_again", { id: "seti_again", customer, status: "succeeded", payment_method: "pm_visa_again" });
    expect(await stripe.completeSetup(alex, { setupIntentId: "seti_again" })).toEqual({
      ok: false,
      message: "This card is already saved: Visa ending in 4242, expires 12/2030.",
    });
    expect(double.pms.get("pm_visa_again")!.customer).toBeNull();
    expect(await stripe.listCards(alex)).toEqual(before);
    // Stripe's fingerprint, when it gives one, says whether it is the same number: another number of the same brand, last
    // four and expiry is another card.
    double.pms.get("pm_visa")!.fingerprint = "fp_one";
    double.pms.set("pm_visa_other", {
      id: "pm_visa_other",
      customer: null,
      brand: "visa",
      last4: "4242",
      exp_month: 12,
      exp_year: 2030,
      fingerprint: "fp_two",
    });
    double.setupIntents.set("seti_other", { id: "seti_other", customer, status: "succeeded", payment_method: "pm_visa_other" });
    expect(await stripe.completeSetup(alex, { setupIntentId: "seti_other" })).toEqual({ ok: true, value: undefined });
    expect(await stripe.remove(alex, "pm_visa_other")).toEqual({ ok: true, value: undefined });
    delete double.pms.get("pm_visa")!.fingerprint;
  });

  it("a failed SetupIntent gives Stripe's plain message; another parent's session is refused", async () => {
    const si = [...double.setupIntents.values()][0]!;
    const failed = {
      id: "seti_failed",
      customer: si.customer,
      status: "requires_payment_method",
      payment_method: null,
      error: "Your card was declined.",
    };
    double.setupIntents.set(failed.id, failed);
    expect(await stripe.completeSetup(alex, { setupIntentId: failed.id })).toEqual({ ok: false, message: "Your card was declined." });
    await stripe.createSetupIntent(other);
    expect((await stripe.completeSetup(other, { setupIntentId: si.id })).ok).toBe(false);
  });

  it("Mark As Default and Delete through the API; the default card is kept; another parent's card id is refused", async () => {
    const customer = [...double.customers.values()][0]!.id;
    expect(await stripe.remove(alex, "pm_visa")).toEqual({ ok: false, message: DEFAULT_CARD_KEPT });
    double.pms.set("pm_theirs", {
      id: "pm_theirs",
      customer: [...double.customers.values()][1]!.id,
      brand: "amex",
      last4: "0005",
      exp_month: 1,
      exp_year: 2030,
    });
    double.calls.length = 0;
    expect(await stripe.setDefault(alex, "pm_theirs")).toEqual({ ok: false, message: CARD_NOT_FOUND, notFound: true });
    expect(await stripe.remove(alex, "pm_theirs")).toEqual({ ok: false, message: CARD_NOT_FOUND, notFound: true });
    expect(double.calls.filter((c) => c.startsWith("POST"))).toEqual([]);
    expect(double.pms.get("pm_theirs")!.customer).not.toBeNull();

    expect(await stripe.setDefault(alex, "pm_mc")).toEqual({ ok: true, value: undefined });
    expect(double.customers.get(customer)!.default_pm).toBe("pm_mc");
    expect(await stripe.remove(alex, "pm_visa")).toEqual({ ok: true, value: undefined });
    expect(double.calls).toContain("POST /v1/payment_methods/pm_visa/detach");
    expect((await stripe.listCards(alex)).map((c) => [c.id, c.isDefault])).toEqual([["pm_mc", true]]);
  });

  it("card errors are Stripe's plain message; other failures a general one, never a raw object", async () => {
    const customer = [...double.customers.values()][0]!.id;
    double.failNext.set(`POST /v1/customers/${customer}`, {
      status: 402,
      error: { type: "card_error", code: "card_declined", message: "Your card has insufficient funds." },
    });
    double.pms.set("pm_x", { id: "pm_x", customer, brand: "visa", last4: "9995", exp_month: 1, exp_year: 2030 });
    expect(await stripe.setDefault(alex, "pm_x")).toEqual({ ok: false, message: "Your card has insufficient funds." });
    double.failNext.set("POST /v1/setup_intents", { status: 500, error: { type: "api_error", message: "Internal trace xyz at line 42" } });
    const r = await stripe.createSetupIntent(alex);
    expect(r).toEqual({ ok: false, message: PAYMENTS_UNAVAILABLE });
    expect(logs.join("\n")).toContain("stripe: setup intent failed");
  });
});

describe("Stripe webhooks: signature-checked, idempotent by event id, replay-safe", () => {
  let t: TestDb;
  let double: StripeDouble;
  let stripe: StripePayments;
  let parentId: string;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    double = await startStripeDouble();
    stripe = createStripePayments({
      db: t.db,
      log: () => {},
      config: { secretKey: DOUBLE_SECRET_KEY, publishableKey: "pk", webhookSecret: WHSEC, apiBase: double.url },
    });
    parentId = (await createParent(t.db, { email: "hook@example.com", name: "Hook", passwordHash: "x" })).id;
    await saveStripeCustomerId(t.db, parentId, "cus_hook");
    const meta = { product_name: "Kids Portal Monthly", profile_name: "Mia", serial_number: "DEMO-MIA-0001" };
    double.subscriptions.push(
      {
        id: "sub_trial",
        object: "subscription",
        customer: "cus_hook",
        status: "trialing",
        trial_end: now + 7 * 86400,
        metadata: { ...meta, subscription_code: "TRIAL-1" },
        items: { data: [{ current_period_end: now + 7 * 86400 }] },
      },
      {
        id: "sub_paid",
        object: "subscription",
        customer: "cus_hook",
        status: "active",
        trial_end: null,
        metadata: { ...meta, subscription_code: "KP-2026", subscription_code_used: "true" },
        items: { data: [{ current_period_end: now + 30 * 86400 }] },
      },
    );
    const inv = (id: string, sub: string, total: number, status: string, attempts: number, created: number) => ({
      id,
      object: "invoice",
      customer: "cus_hook",
      status,
      total,
      currency: "gbp",
      attempt_count: attempts,
      created,
      period_end: created,
      lines: { data: [{ description: "1 × Kids Portal Monthly" }] },
      parent: { type: "subscription_details", subscription_details: { subscription: sub, metadata: {} } },
    });
    double.invoices.push(
      inv("in_trial", "sub_trial", 0, "paid", 0, now - 3000),
      inv("in_paid", "sub_paid", 499, "paid", 1, now - 2000),
      inv("in_failed", "sub_paid", 499, "open", 1, now - 1000),
      inv("in_draft", "sub_paid", 499, "draft", 0, now),
    );
  });
  afterAll(async () => {
    await double?.close();
    await t?.destroy();
  });

  const event = (id: string, customer = "cus_hook") => ({
    id,
    object: "event",
    type: "invoice.paid",
    created: now,
    data: { object: { id: "in_paid", object: "invoice", customer } },
  });

  it("a signed event syncs the customer's invoices and subscriptions into the payments table", async () => {
    const { payload, header } = signed(event("evt_1"));
    expect(await stripe.handleWebhook(payload, header)).toEqual({ status: 200, message: "Processed." });
    expect([...double.calls].sort()).toEqual(["GET /v1/invoices", "GET /v1/subscriptions"]);
    const { rows } = await listPayments(t.db, parentId);
    expect(
      rows.map((r) => [r.provider_ref, r.status, r.is_trial, r.unit_amount, r.subscription_code, r.subscription_code_used, r.profile_name]),
    ).toEqual([
      ["in_failed", "Fail", 0, 499, "KP-2026", 1, "Mia"],
      ["in_paid", "Success", 0, 499, "KP-2026", 1, "Mia"],
      ["in_trial", "Success", 1, 0, "TRIAL-1", 0, "Mia"],
    ]);
    expect(rows[0]!.product_name).toBe("Kids Portal Monthly");
  });

  it("the same event again (a redelivery or a replay) is not processed twice", async () => {
    double.calls.length = 0;
    const { payload, header } = signed(event("evt_1"));
    expect(await stripe.handleWebhook(payload, header)).toEqual({ status: 200, message: "Already processed." });
    expect(double.calls).toEqual([]);
  });

  it("a bad signature, a missing one, a wrong secret, a tampered body and an old timestamp are refused", async () => {
    double.calls.length = 0;
    const good = signed(event("evt_2"));
    expect((await stripe.handleWebhook(good.payload, "t=1,v1=deadbeef")).status).toBe(400);
    expect((await stripe.handleWebhook(good.payload, null)).status).toBe(400);
    const wrong = signed(event("evt_2"), { secret: "whsec_other" });
    expect((await stripe.handleWebhook(wrong.payload, wrong.header)).status).toBe(400);
    expect((await stripe.handleWebhook(good.payload.replace("cus_hook", "cus_evil"), good.header)).status).toBe(400);
    const old = signed(event("evt_3"), { timestamp: now - 3600 });
    expect((await stripe.handleWebhook(old.payload, old.header)).status).toBe(400);
    expect(double.calls).toEqual([]);
    // The refused ids were not claimed: a genuine delivery of the same event is still processed.
    expect((await stripe.handleWebhook(good.payload, good.header)).message).toBe("Processed.");
  });

  it("an event for an unknown customer is acknowledged and changes nothing", async () => {
    double.calls.length = 0;
    const { payload, header } = signed(event("evt_4", "cus_nobody"));
    expect(await stripe.handleWebhook(payload, header)).toEqual({ status: 200, message: "Processed." });
    expect(double.calls).toEqual([]);
  });

  it("a failure while processing gives the event id back, so Stripe's retry is processed", async () => {
    double.failNext.set("GET /v1/invoices", { status: 500, error: { type: "api_error", message: "boom" } });
    const { payload, header } = signed(event("evt_5"));
    expect((await stripe.handleWebhook(payload, header)).status).toBe(500);
    expect((await stripe.handleWebhook(payload, header)).message).toBe("Processed.");
  });
});
