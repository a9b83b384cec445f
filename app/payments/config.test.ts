import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#core/env.server";
import { securityHeaders } from "~/utils/security.server";
import { paymentsFor } from "./index.server";

const base = { NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-payments-config", SESSION_SECRET: "x".repeat(40) } as const;
const stripeKeys = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };

function cspFor(env: ReturnType<typeof parseEnv>, path: string): string {
  const headers: Record<string, string> = {};
  const req = { path, headers: {}, ip: "127.0.0.1", socket: {} } as unknown as Request;
  const res = { locals: {}, setHeader: (k: string, v: string) => void (headers[k.toLowerCase()] = v) } as unknown as Response;
  securityHeaders(env)(req, res, () => {});
  return headers["content-security-policy"] ?? "";
}

describe("payments configuration", () => {
  it("defaults to the local provider", () => {
    const env = parseEnv({ ...base });
    expect(env.PAYMENTS_PROVIDER).toBe("local");
    expect(paymentsFor({ env, db: {} as never, log: () => {} }).kind).toBe("local");
  });

  it("Stripe mode needs its three keys, with a message naming the missing ones", () => {
    expect(() => parseEnv({ ...base, PAYMENTS_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(
      /STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: required with PAYMENTS_PROVIDER=stripe/,
    );
    expect(() => parseEnv({ ...base, PAYMENTS_PROVIDER: "paypal" })).toThrow(/PAYMENTS_PROVIDER/);
    const env = parseEnv({ ...base, PAYMENTS_PROVIDER: "stripe", ...stripeKeys });
    expect(paymentsFor({ env, db: {} as never, log: () => {} }).kind).toBe("stripe");
  });

  it("the CSP allows Stripe's script and frames on the card page only, and only in Stripe mode", () => {
    const stripe = parseEnv({ ...base, PAYMENTS_PROVIDER: "stripe", ...stripeKeys });
    const card = cspFor(stripe, "/payment-methods");
    expect(card).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/js\.stripe\.com;/);
    expect(card).toContain("frame-src https://js.stripe.com https://hooks.stripe.com");
    expect(card).toContain("connect-src 'self' https://api.stripe.com");
    for (const csp of [
      cspFor(stripe, "/payment-history"),
      cspFor(stripe, "/kids-device"),
      cspFor(parseEnv({ ...base }), "/payment-methods"),
    ]) {
      expect(csp).not.toContain("stripe.com");
      expect(csp).toContain("connect-src 'self';");
    }
  });
});
