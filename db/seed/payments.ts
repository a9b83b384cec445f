import type { DB } from "../index";
import { addPaymentMethod, setDefaultPaymentMethod, upsertPayment } from "../queries/payments";

const DAY = 86_400_000;

/**
 * The demo family's payments: a trial, a paid month, a failed payment, a used and an expired subscription code,
 * and two saved cards (brand, last4, expiry and billing details only, as the local provider keeps them).
 */
export async function seedDemoPayments(db: DB, parentId: string, email: string, now: Date = new Date()): Promise<void> {
  const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();
  const product = "Kids Portal Premium (monthly)";
  const mia = { profile_name: "Mia", serial_number: "DEMO-MIA-0001" };
  const leo = { profile_name: "Leo", serial_number: "DEMO-LEO-0002" };
  await upsertPayment(db, {
    parent_id: parentId,
    ...leo,
    product_name: product,
    subscription_code: "KPM-LEO-0926",
    subscription_code_used: false,
    expiry_at: at(-40),
    unit_amount: 499,
    status: "Success",
    created_at: at(-70),
  });
  await upsertPayment(db, {
    parent_id: parentId,
    ...mia,
    product_name: "Kids Portal Premium (7-day trial)",
    is_trial: true,
    subscription_code: "KPT-MIA-7DAY",
    subscription_code_used: true,
    expiry_at: at(-38),
    unit_amount: 0,
    status: "Success",
    created_at: at(-45),
  });
  await upsertPayment(db, {
    parent_id: parentId,
    ...mia,
    product_name: product,
    subscription_code: "KPM-MIA-1126",
    subscription_code_used: true,
    expiry_at: at(10),
    unit_amount: 499,
    status: "Success",
    created_at: at(-20),
  });
  await upsertPayment(db, { parent_id: parentId, ...leo, product_name: product, unit_amount: 499, status: "Fail", created_at: at(-3) });

  const billing = {
    billing_name: "Alex Morgan",
    billing_email: email,
    address_line1: "221B Baker Street",
    address_city: "London",
    address_postal_code: "NW1 6XE",
    address_country: "GB",
  };
  const visa = await addPaymentMethod(
    db,
    parentId,
    { brand: "visa", last4: "4242", exp_month: 12, exp_year: now.getUTCFullYear() + 3, ...billing },
    new Date(now.getTime() - 30 * DAY),
  );
  await addPaymentMethod(
    db,
    parentId,
    { brand: "mastercard", last4: "4444", exp_month: 8, exp_year: now.getUTCFullYear() + 2, ...billing },
    new Date(now.getTime() - 10 * DAY),
  );
  await setDefaultPaymentMethod(db, parentId, visa.id);
}
