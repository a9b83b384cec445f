import { useEffect, useRef, useState } from "react";
import { useFetcher, useNavigate } from "@remix-run/react";
import { FormErrors } from "~/components/forms";

/** The few parts of Stripe.js this page uses (loaded from https://js.stripe.com/v3 on this page only). */
interface StripeJs {
  elements(opts: { clientSecret: string }): { create(kind: "payment"): { mount(el: HTMLElement): void; destroy(): void } };
  confirmSetup(opts: {
    elements: unknown;
    confirmParams: { return_url: string };
    redirect: "if_required";
  }): Promise<{ error?: { message?: string }; setupIntent?: { id: string } }>;
}
declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs;
  }
}

const STRIPE_JS = "https://js.stripe.com/v3";
export const STRIPE_LOAD_FAILED = "The secure card form could not be loaded. Check your connection and try again.";
export const CARD_NOT_SAVED = "Your card could not be saved. Please try again or use another card.";

function loadStripeJs(): Promise<NonNullable<Window["Stripe"]>> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = STRIPE_JS;
    s.async = true;
    s.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error("no Stripe")));
    s.onerror = () => reject(new Error("Stripe.js did not load"));
    document.head.appendChild(s);
  });
}

/**
 * Stripe mode with JavaScript: a SetupIntent from our action, then Stripe's Payment Element in Stripe's own
 * frames. The card number goes from the browser to Stripe; our server only hears the SetupIntent's id back.
 */
export function StripeCardForm({ publishableKey }: { publishableKey: string }) {
  const fetcher = useFetcher<{ clientSecret?: string; error?: string }>();
  const navigate = useNavigate();
  const mountRef = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<{ stripe: StripeJs; elements: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    fetcher.submit({ intent: "setup-intent" }, { method: "post", action: "/payment-methods" });
  }, [fetcher]);

  const clientSecret = fetcher.data?.clientSecret;
  useEffect(() => {
    if (!clientSecret || !mountRef.current) return;
    let element: { destroy(): void } | undefined;
    let cancelled = false;
    loadStripeJs().then(
      (Stripe) => {
        if (cancelled || !mountRef.current) return;
        const stripe = Stripe(publishableKey);
        const elements = stripe.elements({ clientSecret });
        const payment = elements.create("payment");
        payment.mount(mountRef.current);
        element = payment;
        setReady({ stripe, elements });
      },
      () => setError(STRIPE_LOAD_FAILED),
    );
    return () => {
      cancelled = true;
      element?.destroy();
    };
  }, [clientSecret, publishableKey]);

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError(null);
    const r = await ready.stripe.confirmSetup({
      elements: ready.elements,
      confirmParams: { return_url: `${window.location.origin}/payment-methods` },
      redirect: "if_required",
    });
    if (r.error || !r.setupIntent) {
      setError(r.error?.message ?? CARD_NOT_SAVED);
      setBusy(false);
      return;
    }
    navigate(`/payment-methods?setup_intent=${encodeURIComponent(r.setupIntent.id)}`);
  }

  return (
    <form onSubmit={onSubmit} className="stack">
      <FormErrors errors={error ? [error] : fetcher.data?.error ? [fetcher.data.error] : null} />
      <div ref={mountRef} className="stripe-element" aria-busy={!ready} />
      <button type="submit" className="btn btn-primary" disabled={!ready || busy} aria-busy={busy}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        <span>Submit</span>
      </button>
    </form>
  );
}
