import type { AppServices } from "~/load-context";
import { createLocalPayments } from "./local.server";
import type { PaymentsProvider } from "./provider.server";
import { createStripePayments } from "./stripe.server";

export type { PaymentsProvider };

const providers = new WeakMap<object, PaymentsProvider>();

/** The configured payments adapter (PAYMENTS_PROVIDER), made once per set of services. */
export function paymentsFor(services: Pick<AppServices, "env" | "db" | "log">): PaymentsProvider {
  let p = providers.get(services);
  if (!p) {
    const e = services.env;
    p =
      e.PAYMENTS_PROVIDER === "stripe"
        ? createStripePayments({
            db: services.db,
            log: services.log,
            config: {
              secretKey: e.STRIPE_SECRET_KEY,
              publishableKey: e.STRIPE_PUBLISHABLE_KEY,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET,
              apiBase: e.STRIPE_API_BASE || undefined,
            },
          })
        : createLocalPayments({ db: services.db });
    providers.set(services, p);
  }
  return p;
}
