import { sql } from "kysely";
import type { DB } from "../index";
import type { PaymentMethodRow, PaymentRow, PaymentStatus } from "../schema-payments";
import { newId, nowIso } from "../../core/ids.server";

export type { PaymentMethodRow, PaymentRow, PaymentStatus };

/** Payment history lines per page (spec 2 §9 leaves the size open). */
export const PAYMENTS_PAGE_SIZE = 10;

// ---------- saved cards (local provider) ----------

export interface SavedCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  billing_name: string | null;
  billing_email: string | null;
  address_line1?: string | null;
  address_line2?: string | null;
  address_city?: string | null;
  address_postal_code?: string | null;
  address_country?: string | null;
}

/** The parent's cards, the default first, then newest first. */
export async function listPaymentMethods(db: DB, parentId: string): Promise<PaymentMethodRow[]> {
  return db
    .selectFrom("payment_methods")
    .selectAll()
    .where("parent_id", "=", parentId)
    .orderBy("is_default", "desc")
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
}

/** Keeps a card's receipt parts; the parent's first card becomes the default. */
export async function addPaymentMethod(db: DB, parentId: string, card: SavedCard, now: Date = new Date()): Promise<PaymentMethodRow> {
  return db.transaction().execute(async (trx) => {
    const any = await trx
      .selectFrom("payment_methods")
      .select("id")
      .where("parent_id", "=", parentId)
      .where("is_default", "=", 1)
      .executeTakeFirst();
    const row = {
      id: newId(),
      parent_id: parentId,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      billing_name: card.billing_name,
      billing_email: card.billing_email,
      address_line1: card.address_line1 ?? null,
      address_line2: card.address_line2 ?? null,
      address_city: card.address_city ?? null,
      address_postal_code: card.address_postal_code ?? null,
      address_country: card.address_country ?? null,
      is_default: any ? 0 : 1,
      created_at: nowIso(now),
    };
    await trx.insertInto("payment_methods").values(row).execute();
    return row;
  });
}

/** Makes one of the parent's own cards the default. False when the card is not theirs (or gone). */
export async function setDefaultPaymentMethod(db: DB, parentId: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const own = await trx
      .selectFrom("payment_methods")
      .select("id")
      .where("parent_id", "=", parentId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!own) return false;
    await trx
      .updateTable("payment_methods")
      .set({ is_default: sql<number>`CASE WHEN id = ${id} THEN 1 ELSE 0 END` })
      .where("parent_id", "=", parentId)
      .execute();
    return true;
  });
}

/** Deletes one of the parent's own cards; the default card is kept (the page hides Delete for it). */
export async function deletePaymentMethod(db: DB, parentId: string, id: string): Promise<"deleted" | "not-found" | "default"> {
  const row = await db
    .selectFrom("payment_methods")
    .select(["id", "is_default"])
    .where("parent_id", "=", parentId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return "not-found";
  if (row.is_default) return "default";
  await db.deleteFrom("payment_methods").where("parent_id", "=", parentId).where("id", "=", id).execute();
  return "deleted";
}

// ---------- payment history ----------

export interface PaymentInput {
  parent_id: string;
  provider_ref?: string | null;
  product_name: string;
  image_url?: string | null;
  is_trial?: boolean;
  subscription_code?: string | null;
  subscription_code_used?: boolean;
  expiry_at?: string | null;
  profile_name?: string | null;
  serial_number?: string | null;
  unit_amount: number;
  currency?: string;
  status: PaymentStatus;
  created_at: string;
}

function paymentValues(p: PaymentInput) {
  return {
    product_name: p.product_name,
    image_url: p.image_url ?? null,
    is_trial: p.is_trial ? 1 : 0,
    subscription_code: p.subscription_code ?? null,
    subscription_code_used: p.subscription_code_used ? 1 : 0,
    expiry_at: p.expiry_at ?? null,
    profile_name: p.profile_name ?? null,
    serial_number: p.serial_number ?? null,
    unit_amount: p.unit_amount,
    currency: p.currency ?? "gbp",
    status: p.status,
    created_at: p.created_at,
  };
}

/** Adds a history line; with a provider_ref (a Stripe invoice id) a second write of the same one updates it in place. */
export async function upsertPayment(db: DB, p: PaymentInput): Promise<void> {
  const values = paymentValues(p);
  const insert = db.insertInto("payments").values({ id: newId(), parent_id: p.parent_id, provider_ref: p.provider_ref ?? null, ...values });
  if (!p.provider_ref) {
    await insert.execute();
    return;
  }
  await insert.onConflict((oc) => oc.column("provider_ref").doUpdateSet({ ...values, parent_id: p.parent_id })).execute();
}

/** One page of the parent's history, newest first, and the total count. */
export async function listPayments(
  db: DB,
  parentId: string,
  page = 1,
  pageSize = PAYMENTS_PAGE_SIZE,
): Promise<{ rows: PaymentRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("payments")
      .selectAll()
      .where("parent_id", "=", parentId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(pageSize)
      .offset((Math.max(1, page) - 1) * pageSize)
      .execute(),
    db
      .selectFrom("payments")
      .select(sql<number>`count(*)`.as("n"))
      .where("parent_id", "=", parentId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

// ---------- Stripe bookkeeping ----------

export async function getStripeCustomerId(db: DB, parentId: string): Promise<string | null> {
  const row = await db.selectFrom("payment_customers").select("stripe_customer_id").where("parent_id", "=", parentId).executeTakeFirst();
  return row?.stripe_customer_id ?? null;
}

/** Records the parent's customer; when two requests raced, the first one kept wins and is returned. */
export async function saveStripeCustomerId(db: DB, parentId: string, customerId: string, now: Date = new Date()): Promise<string> {
  await db
    .insertInto("payment_customers")
    .values({ parent_id: parentId, stripe_customer_id: customerId, created_at: nowIso(now) })
    .onConflict((oc) => oc.column("parent_id").doNothing())
    .execute();
  return (await getStripeCustomerId(db, parentId)) ?? customerId;
}

export async function parentOfStripeCustomer(db: DB, customerId: string): Promise<string | null> {
  const row = await db.selectFrom("payment_customers").select("parent_id").where("stripe_customer_id", "=", customerId).executeTakeFirst();
  return row?.parent_id ?? null;
}

/** Claims a webhook event id. False when it was already processed (a redelivery or a replay). */
export async function claimStripeEvent(db: DB, id: string, type: string, now: Date = new Date()): Promise<boolean> {
  const r = await db
    .insertInto("stripe_events")
    .values({ id, type, received_at: nowIso(now) })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Gives a claimed event back when its processing failed, so Stripe's retry is processed. */
export async function releaseStripeEvent(db: DB, id: string): Promise<void> {
  await db.deleteFrom("stripe_events").where("id", "=", id).execute();
}
