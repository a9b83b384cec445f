import type { DB } from "#db/index";
import {
  addPaymentMethod,
  deletePaymentMethod,
  listPaymentMethods,
  setDefaultPaymentMethod,
  type PaymentMethodRow,
} from "#db/queries/payments";
import { checkCard, DEMO_DECLINES, digitsOnly, duplicateCardMessage, sameCard } from "./card";
import { CARD_NOT_FOUND, DEFAULT_CARD_KEPT, type CardFieldErrors, type CardView, type LocalPayments } from "./provider.server";

export function cardView(row: PaymentMethodRow): CardView {
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.exp_month,
    exp_year: row.exp_year,
    isDefault: Boolean(row.is_default),
    billing: {
      name: row.billing_name,
      email: row.billing_email,
      line1: row.address_line1,
      line2: row.address_line2,
      city: row.address_city,
      postal_code: row.address_postal_code,
      country: row.address_country,
    },
  };
}

/**
 * The local provider: a demo card form that posts to this server. The number and CVC live only in this call's
 * arguments; what is kept is brand, last4, expiry and billing details. Nothing here logs.
 */
export function createLocalPayments({ db, now = () => new Date() }: { db: DB; now?: () => Date }): LocalPayments {
  return {
    kind: "local",
    async listCards(parent) {
      return (await listPaymentMethods(db, parent.id)).map(cardView);
    },
    async addCard(parent, input) {
      const checked = checkCard(input, now());
      if (!checked.ok) {
        const fieldErrors: CardFieldErrors = {};
        for (const p of checked.problems) (fieldErrors[p.field] ??= []).push(p.message);
        return { ok: false, fieldErrors };
      }
      const decline = DEMO_DECLINES[digitsOnly(input.number)];
      if (decline) return { ok: false, fieldErrors: {}, message: decline };
      // The same card twice would be two rows no one can tell apart (and delete the right one of).
      if ((await listPaymentMethods(db, parent.id)).some((row) => sameCard(row, checked.card)))
        return { ok: false, fieldErrors: {}, message: duplicateCardMessage(checked.card) };
      const row = await addPaymentMethod(db, parent.id, { ...checked.card, billing_name: input.card_name, billing_email: parent.email });
      return { ok: true, card: cardView(row) };
    },
    async setDefault(parent, id) {
      return (await setDefaultPaymentMethod(db, parent.id, id))
        ? { ok: true, value: undefined }
        : { ok: false, message: CARD_NOT_FOUND, notFound: true };
    },
    async remove(parent, id) {
      const r = await deletePaymentMethod(db, parent.id, id);
      if (r === "deleted") return { ok: true, value: undefined };
      return r === "default" ? { ok: false, message: DEFAULT_CARD_KEPT } : { ok: false, message: CARD_NOT_FOUND, notFound: true };
    },
  };
}
