import { parseWithZod } from "@conform-to/zod";
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { SubmitButton } from "~/components/forms";
import { Modal, useModalHref } from "~/components/layout";
import { LocalCardForm } from "~/components/payments/CardForm";
import { CardList, cardLabel, DeleteCardConfirm, type CardItem } from "~/components/payments/CardList";
import { StripeCardForm } from "~/components/payments/StripeCardForm";
import { CardFormSchema } from "~/payments/card";
import { paymentsFor } from "~/payments/index.server";
import { PAYMENTS_UNAVAILABLE, type PayingParent } from "~/payments/provider.server";
import paymentStyles from "../styles/payments.css?url";
import { requireParent } from "~/utils/auth.server";
import { useHydrated, useIsSubmitting } from "~/utils/hooks";
import { publicOrigin } from "#core/env.server";
import { redirectWithToast } from "~/utils/toast.server";
import { ChevronIcon } from "~/components/dashboard/icons";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: paymentStyles }];
export const meta: MetaFunction = () => [{ title: "Payment Methods · Kids Portal" }];

const PAGE = "/payment-methods";
const CardIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("default"), id: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("delete"), id: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("setup-intent") }),
  z.object({ intent: z.literal("checkout") }),
]);

const paying = (p: { id: string; email: string; name: string }): PayingParent => ({ id: p.id, email: p.email, name: p.name });
const notFound = () => new Response("Not found", { status: 404 });

export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const payments = paymentsFor(args.context.services);
  const url = new URL(args.request.url);
  // Back from Stripe (Checkout without JavaScript, or the Payment Element's redirect): finish adding the card.
  const checkoutSessionId = url.searchParams.get("checkout_session");
  const setupIntentId = url.searchParams.get("setup_intent");
  if (payments.kind === "stripe" && (checkoutSessionId || setupIntentId)) {
    const r = await payments.completeSetup(paying(parent), {
      checkoutSessionId: checkoutSessionId ?? undefined,
      setupIntentId: setupIntentId ?? undefined,
    });
    return redirectWithToast(
      PAGE,
      r.ok ? { type: "success", message: "Your card has been added." } : { type: "error", message: r.message },
    );
  }
  let cards: CardItem[] = [];
  let unavailable = false;
  try {
    cards = await payments.listCards(paying(parent));
  } catch (err) {
    args.context.services.log("error", "payment methods could not be listed", { error: err instanceof Error ? err.message : String(err) });
    unavailable = true;
  }
  const confirmId = url.searchParams.get("confirm") === "delete" ? url.searchParams.get("id") : null;
  return json({
    kind: payments.kind,
    publishableKey: payments.kind === "stripe" ? payments.publishableKey : null,
    cards,
    unavailable,
    modal: url.searchParams.get("modal") === "add" ? ("add" as const) : null,
    confirmCard: confirmId ? (cards.find((c) => c.id === confirmId && !c.isDefault) ?? null) : null,
  });
}

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const payments = paymentsFor(args.context.services);
  const formData = await args.request.formData();
  if (formData.get("intent") === "add") {
    // Card data reaches this server only with the local (demo) provider; in Stripe mode it goes to Stripe.
    if (payments.kind !== "local")
      return redirectWithToast(PAGE, { type: "error", message: "Please add your card with the secure card form." });
    const submission = parseWithZod(formData, { schema: CardFormSchema });
    const hideFields = ["number", "cvc"];
    if (submission.status !== "success") return json({ form: submission.reply({ hideFields }) }, { status: 400 });
    const r = await payments.addCard(paying(parent), submission.value);
    if (!r.ok)
      return json(
        { form: submission.reply({ hideFields, fieldErrors: r.fieldErrors, formErrors: r.message ? [r.message] : undefined }) },
        { status: 400 },
      );
    return redirectWithToast(PAGE, { type: "success", message: `Your demo card ${cardLabel(r.card)} has been added.` });
  }
  const parsed = CardIntent.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return redirectWithToast(PAGE, { type: "error", message: "Something went wrong. Please try again." });
  const v = parsed.data;
  switch (v.intent) {
    case "default": {
      const r = await payments.setDefault(paying(parent), v.id);
      if (!r.ok && r.notFound) throw notFound();
      return redirectWithToast(
        PAGE,
        r.ok ? { type: "success", message: "Your default card has been changed." } : { type: "error", message: r.message },
      );
    }
    case "delete": {
      const r = await payments.remove(paying(parent), v.id);
      if (!r.ok && r.notFound) throw notFound();
      return redirectWithToast(
        PAGE,
        r.ok ? { type: "success", message: "Your card has been deleted." } : { type: "error", message: r.message },
      );
    }
    case "setup-intent": {
      if (payments.kind !== "stripe") return json({ error: PAYMENTS_UNAVAILABLE }, { status: 400 });
      const r = await payments.createSetupIntent(paying(parent));
      return r.ok ? json({ clientSecret: r.value.clientSecret }) : json({ error: r.message }, { status: 502 });
    }
    case "checkout": {
      if (payments.kind !== "stripe") return redirect(`${PAGE}?modal=add`);
      const r = await payments.createCheckoutSession(paying(parent), publicOrigin(args.context.services.env));
      return r.ok ? redirect(r.value.url) : redirectWithToast(PAGE, { type: "error", message: r.message });
    }
  }
}

function AddCard({ kind }: { kind: "local" | "stripe" }) {
  const hydrated = useHydrated();
  const modalHref = useModalHref();
  const busy = useIsSubmitting({ intent: "checkout" });
  if (kind === "stripe" && !hydrated) {
    // Without JavaScript: Stripe Checkout in setup mode, there and back.
    return (
      <Form method="post">
        <input type="hidden" name="intent" value="checkout" />
        <SubmitButton busy={busy} className="btn">
          Add card
        </SubmitButton>
      </Form>
    );
  }
  // Stripe's script is allowed on this page's own documents only, so the Payment Element opens in a fresh load.
  return (
    <Link className="btn" to={modalHref("add")} preventScrollReset reloadDocument={kind === "stripe"}>
      Add card
    </Link>
  );
}

export default function PaymentMethods() {
  const { kind, publishableKey, cards, unavailable, modal, confirmCard } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const modalHref = useModalHref();
  const deleteHref = (id: string) => {
    const params = new URLSearchParams(location.search);
    params.delete("modal");
    params.set("confirm", "delete");
    params.set("id", id);
    return `${PAGE}?${params}`;
  };
  const closeConfirm = (() => {
    const params = new URLSearchParams(location.search);
    params.delete("confirm");
    params.delete("id");
    const qs = params.toString();
    return `${PAGE}${qs ? `?${qs}` : ""}`;
  })();
  const lastResult = actionData && "form" in actionData ? actionData.form : null;
  return (
    <section className="stack">
      <Link to="/kids-device" className="back-link">
        <ChevronIcon dir="left" /> Back to Home
      </Link>
      <div className="row-between">
        <h1>Payment Methods</h1>
        <AddCard kind={kind} />
      </div>
      {unavailable ? (
        <div className="banner banner-error" role="alert">
          {PAYMENTS_UNAVAILABLE}
        </div>
      ) : (
        <CardList cards={cards} deleteHref={deleteHref} />
      )}
      {modal === "add" ? (
        <Modal title="Add card" closeHref={modalHref(null)}>
          {kind === "stripe" && publishableKey ? (
            <StripeCardForm publishableKey={publishableKey} />
          ) : (
            <LocalCardForm lastResult={lastResult} />
          )}
        </Modal>
      ) : null}
      {confirmCard ? <DeleteCardConfirm card={confirmCard} closeHref={closeConfirm} /> : null}
    </section>
  );
}
