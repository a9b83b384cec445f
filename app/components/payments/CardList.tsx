import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { cardExpiry, cardName } from "~/payments/card";
import { useIsSubmitting } from "~/utils/hooks";
import { StarIcon } from "~/components/dashboard/icons";

export interface CardItem {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  isDefault: boolean;
  billing: {
    name: string | null;
    email: string | null;
    line1: string | null;
    line2: string | null;
    city: string | null;
    postal_code: string | null;
    country: string | null;
  };
}

export function cardLabel(c: Pick<CardItem, "brand" | "last4">): string {
  return cardName(c);
}

/** What tells two cards of one brand and last four apart: "Visa ending in 4242, expires 12/2031". */
export function cardLabelWithExpiry(c: Pick<CardItem, "brand" | "last4" | "exp_month" | "exp_year">): string {
  return `${cardName(c)}, expires ${cardExpiry(c)}`;
}

function address(b: CardItem["billing"]): string {
  return [b.line1, b.line2, b.city, b.postal_code, b.country].filter(Boolean).join(", ");
}

function CardRow({ card, deleteHref }: { card: CardItem; deleteHref: string }) {
  const busy = useIsSubmitting({ intent: "default" });
  const where = address(card.billing);
  return (
    <li className="card card-item" data-testid="payment-card">
      <h2>
        {card.isDefault ? (
          <span className="card-star" title="Default card">
            <StarIcon />
            <span className="sr-only">Default card:</span>
          </span>
        ) : null}
        {cardLabel(card)}
      </h2>
      <p className="card-billing">Expires {cardExpiry(card)}</p>
      {card.billing.name ? <p className="card-billing">{card.billing.name}</p> : null}
      {card.billing.email ? <p className="card-billing">{card.billing.email}</p> : null}
      {where ? <p className="card-billing">{where}</p> : null}
      {card.isDefault ? null : (
        <div className="card-actions">
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="default" />
            <input type="hidden" name="id" value={card.id} />
            <SubmitButton busy={busy} className="btn btn-outline btn-small" aria-label={`Mark As Default: ${cardLabelWithExpiry(card)}`}>
              Mark As Default
            </SubmitButton>
          </Form>
          <Link className="btn btn-outline btn-small" to={deleteHref} preventScrollReset aria-label={`Delete ${cardLabelWithExpiry(card)}`}>
            Delete
          </Link>
        </div>
      )}
    </li>
  );
}

export function CardList({ cards, deleteHref }: { cards: CardItem[]; deleteHref: (id: string) => string }) {
  if (!cards.length) {
    return (
      <section className="card center empty-state">
        <p>No saved cards yet.</p>
      </section>
    );
  }
  return (
    <ul className="pay-list">
      {cards.map((c) => (
        <CardRow key={c.id} card={c} deleteHref={deleteHref(c.id)} />
      ))}
    </ul>
  );
}

export function DeleteCardConfirm({ card, closeHref }: { card: CardItem; closeHref: string }) {
  const busy = useIsSubmitting({ intent: "delete" });
  return (
    <Modal title="Delete card" closeHref={closeHref}>
      <p>
        Are you sure you want to delete your {cardName(card)} (expires {cardExpiry(card)})?
      </p>
      <div className="modal-actions">
        <Link to={closeHref} className="btn btn-outline" replace>
          Cancel
        </Link>
        <Form method="post" action="/payment-methods">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={card.id} />
          <SubmitButton busy={busy} className="btn btn-danger">
            Delete
          </SubmitButton>
        </Form>
      </div>
    </Modal>
  );
}
