import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP double of exactly the Stripe endpoints the adapter calls (tests only): customers (create, retrieve,
 * update), payment methods (list, attach, detach), setup intents (create, retrieve), checkout sessions (create,
 * retrieve), invoices (list) and subscriptions (list). Anything else answers 404 so a new call shows up at once.
 */
export interface DoublePm {
  id: string;
  customer: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** Stripe's fingerprint of the card number (the same number saved twice has one). */
  fingerprint?: string;
  name?: string;
  email?: string;
  line1?: string;
  city?: string;
  postal_code?: string;
  country?: string;
}

export interface StripeDouble {
  url: string;
  calls: string[];
  customers: Map<string, { id: string; email: string; name: string; metadata: Record<string, string>; default_pm: string | null }>;
  pms: Map<string, DoublePm>;
  setupIntents: Map<string, { id: string; customer: string; status: string; payment_method: string | null; error?: string }>;
  sessions: Map<string, { id: string; customer: string; setup_intent: string; params: Record<string, string> }>;
  invoices: Record<string, unknown>[];
  subscriptions: Record<string, unknown>[];
  /** Next answer for a path (e.g. a card error on attach), used once. */
  failNext: Map<string, { status: number; error: Record<string, unknown> }>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("end", () => resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")))));
  });
}

export const DOUBLE_SECRET_KEY = "sk_test_double";

export async function startStripeDouble(): Promise<StripeDouble> {
  let seq = 0;
  const id = (prefix: string) => `${prefix}_${++seq}${Math.random().toString(36).slice(2, 8)}`;
  const d: Omit<StripeDouble, "url" | "close"> = {
    calls: [],
    customers: new Map(),
    pms: new Map(),
    setupIntents: new Map(),
    sessions: new Map(),
    invoices: [],
    subscriptions: [],
    failNext: new Map(),
  };

  const pmJson = (pm: DoublePm) => ({
    id: pm.id,
    object: "payment_method",
    type: "card",
    customer: pm.customer,
    card: { brand: pm.brand, last4: pm.last4, exp_month: pm.exp_month, exp_year: pm.exp_year, fingerprint: pm.fingerprint ?? null },
    billing_details: {
      name: pm.name ?? null,
      email: pm.email ?? null,
      phone: null,
      address: {
        line1: pm.line1 ?? null,
        line2: null,
        city: pm.city ?? null,
        postal_code: pm.postal_code ?? null,
        country: pm.country ?? null,
        state: null,
      },
    },
  });
  const customerJson = (c: { id: string; email: string; name: string; metadata: Record<string, string>; default_pm: string | null }) => ({
    id: c.id,
    object: "customer",
    email: c.email,
    name: c.name,
    metadata: c.metadata,
    invoice_settings: { default_payment_method: c.default_pm },
  });
  const list = (data: unknown[]) => ({ object: "list", data, has_more: false, url: "/v1/x" });

  async function handle(req: IncomingMessage): Promise<[number, unknown]> {
    const u = new URL(req.url ?? "/", "http://x");
    const key = `${req.method} ${u.pathname}`;
    d.calls.push(key);
    if (req.headers.authorization !== `Bearer ${DOUBLE_SECRET_KEY}`)
      return [401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } }];
    const forced = d.failNext.get(key);
    if (forced) {
      d.failNext.delete(key);
      return [forced.status, { error: forced.error }];
    }
    const body = req.method === "POST" ? await readBody(req) : {};
    const q = u.searchParams;
    const parts = u.pathname.split("/").filter(Boolean);
    // ["v1", resource, id?, action?]; checkout sessions are one resource of two segments
    const seg = parts[1] === "checkout" ? ["v1", `checkout/${parts[2]}`, ...parts.slice(3)] : parts;
    const missing: [number, unknown] = [404, { error: { type: "invalid_request_error", message: `No such resource: ${u.pathname}` } }];
    switch (`${req.method} ${seg[1]}${seg[2] ? "/:id" : ""}${seg[3] ? `/${seg[3]}` : ""}`) {
      case "POST customers": {
        const metadata: Record<string, string> = {};
        for (const [k, v] of Object.entries(body)) if (k.startsWith("metadata[")) metadata[k.slice(9, -1)] = v;
        const c = { id: id("cus"), email: body.email ?? "", name: body.name ?? "", metadata, default_pm: null };
        d.customers.set(c.id, c);
        return [200, customerJson(c)];
      }
      case "GET customers/:id": {
        const c = d.customers.get(seg[2]!);
        return c ? [200, customerJson(c)] : missing;
      }
      case "POST customers/:id": {
        const c = d.customers.get(seg[2]!);
        if (!c) return missing;
        if ("invoice_settings[default_payment_method]" in body) c.default_pm = body["invoice_settings[default_payment_method]"] || null;
        return [200, customerJson(c)];
      }
      case "GET payment_methods":
        return [200, list([...d.pms.values()].filter((p) => p.customer === q.get("customer")).map(pmJson))];
      case "POST payment_methods/:id/attach": {
        const pm = d.pms.get(seg[2]!);
        if (!pm) return missing;
        pm.customer = body.customer ?? null;
        return [200, pmJson(pm)];
      }
      case "POST payment_methods/:id/detach": {
        const pm = d.pms.get(seg[2]!);
        if (!pm) return missing;
        pm.customer = null;
        return [200, pmJson(pm)];
      }
      case "POST setup_intents": {
        const si = { id: id("seti"), customer: body.customer!, status: "requires_payment_method", payment_method: null };
        d.setupIntents.set(si.id, si);
        return [
          200,
          {
            id: si.id,
            object: "setup_intent",
            customer: si.customer,
            status: si.status,
            client_secret: `${si.id}_secret_x`,
            payment_method: null,
            usage: body.usage,
          },
        ];
      }
      case "GET setup_intents/:id": {
        const si = d.setupIntents.get(seg[2]!);
        if (!si) return missing;
        return [
          200,
          {
            id: si.id,
            object: "setup_intent",
            customer: si.customer,
            status: si.status,
            payment_method: si.payment_method,
            last_setup_error: si.error ? { message: si.error, type: "card_error" } : null,
          },
        ];
      }
      case "POST checkout/sessions": {
        const si = { id: id("seti"), customer: body.customer!, status: "requires_payment_method", payment_method: null };
        d.setupIntents.set(si.id, si);
        const s = { id: id("cs_test"), customer: body.customer!, setup_intent: si.id, params: body };
        d.sessions.set(s.id, s);
        return [
          200,
          {
            id: s.id,
            object: "checkout.session",
            mode: body.mode,
            customer: s.customer,
            setup_intent: si.id,
            url: `https://checkout.stripe.test/c/${s.id}`,
          },
        ];
      }
      case "GET checkout/sessions/:id": {
        const s = d.sessions.get(seg[2]!);
        return s
          ? [
              200,
              {
                id: s.id,
                object: "checkout.session",
                mode: "setup",
                customer: s.customer,
                setup_intent: s.setup_intent,
                status: "complete",
              },
            ]
          : missing;
      }
      case "GET invoices":
        return [200, list(d.invoices.filter((i) => i.customer === q.get("customer")))];
      case "GET subscriptions":
        return [200, list(d.subscriptions.filter((s) => s.customer === q.get("customer")))];
      default:
        return missing;
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req).then(
      ([status, json]) => {
        res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") }).end(JSON.stringify(json));
      },
      (err: unknown) =>
        res
          .writeHead(500, { "Content-Type": "application/json" })
          .end(JSON.stringify({ error: { type: "api_error", message: String(err) } })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { ...d, url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
