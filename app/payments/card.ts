import { z } from "zod";

/**
 * Pure card checks for the local (demo) provider: Luhn, length and brand from the number's prefix, expiry not
 * in the past, CVC of 3–4 digits. Nothing here keeps or logs a number; callers drop it right after `checkCard`.
 */
export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "diners" | "jcb" | "unionpay";

interface BrandRule {
  brand: CardBrand;
  prefix: RegExp;
  lengths: number[];
  cvc: number[];
}

// Order matters: the first matching prefix wins (JCB and Diners before the wider ranges).
const BRANDS: BrandRule[] = [
  { brand: "amex", prefix: /^3[47]/, lengths: [15], cvc: [4] },
  { brand: "jcb", prefix: /^35(2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19], cvc: [3, 4] },
  { brand: "diners", prefix: /^(30[0-5]|3095|36|3[89])/, lengths: [14, 15, 16, 17, 18, 19], cvc: [3, 4] },
  { brand: "visa", prefix: /^4/, lengths: [13, 16, 19], cvc: [3, 4] },
  { brand: "mastercard", prefix: /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16], cvc: [3, 4] },
  {
    brand: "discover",
    prefix: /^(6011|65|64[4-9]|622(12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))/,
    lengths: [16, 17, 18, 19],
    cvc: [3, 4],
  },
  { brand: "unionpay", prefix: /^62/, lengths: [16, 17, 18, 19], cvc: [3, 4] },
];

export const BRAND_LABELS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

/** A card as people tell it apart: "Visa ending in 4242". */
export function cardName(c: { brand: string; last4: string }): string {
  return `${brandSentenceCase(c.brand)} ending in ${c.last4}`;
}

/** Its expiry as the card shows it: "12/2031". */
export function cardExpiry(c: { exp_month: number; exp_year: number }): string {
  return `${String(c.exp_month).padStart(2, "0")}/${c.exp_year}`;
}

/** Two saved cards are the same card when brand, last four digits and expiry match (a card's number is never kept). */
export function sameCard(
  a: { brand: string; last4: string; exp_month: number; exp_year: number },
  b: { brand: string; last4: string; exp_month: number; exp_year: number },
): boolean {
  return a.brand.toLowerCase() === b.brand.toLowerCase() && a.last4 === b.last4 && a.exp_month === b.exp_month && a.exp_year === b.exp_year;
}

/** Saving a card that is saved already. */
export function duplicateCardMessage(c: { brand: string; last4: string; exp_month: number; exp_year: number }): string {
  return `This card is already saved: ${cardName(c)}, expires ${cardExpiry(c)}.`;
}

/** The spec shows the brand "in sentence case": visa → Visa, american_express → American express. */
export function brandSentenceCase(brand: string): string {
  const words = brand.replace(/[_-]+/g, " ").trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : "Card";
}

export function digitsOnly(number: string): string {
  return number.replace(/[\s-]/g, "");
}

export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): CardBrand | null {
  return BRANDS.find((b) => b.prefix.test(digits))?.brand ?? null;
}

export const CARD_MESSAGES = {
  numberRequired: "Please enter your card number.",
  numberIncomplete: "Your card number is incomplete.",
  numberInvalid: "Your card number is invalid.",
  brandUnknown: "We accept Visa, Mastercard, American Express, Discover, Diners Club, JCB and UnionPay cards.",
  monthInvalid: "Please choose an expiry month from 1 to 12.",
  yearInvalid: "Please enter the expiry year, for example 2030.",
  expired: "Your card's expiry date is in the past.",
  cvcInvalid: "Your card's security code is 3 or 4 digits.",
  cvcIncomplete: "Your card's security code is incomplete.",
  nameRequired: "Please enter the name on the card.",
} as const;

export type CardProblem = { field: "number" | "exp_month" | "exp_year" | "cvc"; message: string };

/** Expiry is the end of its month (UTC): a card expiring 05/2030 works through 31 May 2030. */
export function expiryPassed(month: number, year: number, now: Date = new Date()): boolean {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return year < y || (year === y && month < m);
}

/** Two-digit years read as 20xx (the form says "2030", people type "30"). */
export function normalizeYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

export interface CheckedCard {
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** Every problem with a card, or its kept parts (brand, last4, expiry). The number and CVC are not returned. */
export function checkCard(
  input: { number: string; exp_month: number; exp_year: number; cvc: string },
  now: Date = new Date(),
): { ok: true; card: CheckedCard } | { ok: false; problems: CardProblem[] } {
  const problems: CardProblem[] = [];
  const digits = digitsOnly(input.number);
  const rule = BRANDS.find((b) => b.prefix.test(digits));
  if (!digits) problems.push({ field: "number", message: CARD_MESSAGES.numberRequired });
  else if (!/^\d+$/.test(digits)) problems.push({ field: "number", message: CARD_MESSAGES.numberInvalid });
  else if (!rule)
    // A number of no brand we know: too short, or not a card number at all (length, check digit), or a real card of
    // another brand (the only case the accepted brands help with).
    problems.push({
      field: "number",
      message:
        digits.length < 12
          ? CARD_MESSAGES.numberIncomplete
          : digits.length > 19 || !luhnValid(digits)
            ? CARD_MESSAGES.numberInvalid
            : CARD_MESSAGES.brandUnknown,
    });
  else if (digits.length < Math.min(...rule.lengths)) problems.push({ field: "number", message: CARD_MESSAGES.numberIncomplete });
  else if (!rule.lengths.includes(digits.length) || !luhnValid(digits))
    problems.push({ field: "number", message: CARD_MESSAGES.numberInvalid });

  const month = input.exp_month;
  const year = normalizeYear(input.exp_year);
  const monthOk = Number.isInteger(month) && month >= 1 && month <= 12;
  const yearOk = Number.isInteger(year) && year >= 2000 && year <= 2100;
  if (!monthOk) problems.push({ field: "exp_month", message: CARD_MESSAGES.monthInvalid });
  if (!yearOk) problems.push({ field: "exp_year", message: CARD_MESSAGES.yearInvalid });
  if (monthOk && yearOk && expiryPassed(month, year, now)) problems.push({ field: "exp_year", message: CARD_MESSAGES.expired });

  const cvc = input.cvc.trim();
  if (!/^\d+$/.test(cvc)) problems.push({ field: "cvc", message: CARD_MESSAGES.cvcInvalid });
  else if (rule && !rule.cvc.includes(cvc.length) && cvc.length < Math.min(...rule.cvc))
    problems.push({ field: "cvc", message: CARD_MESSAGES.cvcIncomplete });
  else if (cvc.length < 3 || cvc.length > 4 || (rule && !rule.cvc.includes(cvc.length)))
    problems.push({ field: "cvc", message: CARD_MESSAGES.cvcInvalid });

  if (problems.length || !rule) return { ok: false, problems };
  return { ok: true, card: { brand: rule.brand, last4: digits.slice(-4), exp_month: month, exp_year: year } };
}

/** The card form (spec: card_name, number, exp_month, exp_year, cvc). Bounded strings; the card checks run after. */
export const CardFormSchema = z.object({
  card_name: z
    .string({ required_error: CARD_MESSAGES.nameRequired })
    .trim()
    .min(1, CARD_MESSAGES.nameRequired)
    .max(100, "The name on the card is at most 100 characters."),
  number: z.string({ required_error: CARD_MESSAGES.numberRequired }).max(40, CARD_MESSAGES.numberInvalid),
  exp_month: z.coerce
    .number({ required_error: CARD_MESSAGES.monthInvalid, invalid_type_error: CARD_MESSAGES.monthInvalid })
    .int(CARD_MESSAGES.monthInvalid)
    .min(1, CARD_MESSAGES.monthInvalid)
    .max(12, CARD_MESSAGES.monthInvalid),
  exp_year: z.coerce
    .number({ required_error: CARD_MESSAGES.yearInvalid, invalid_type_error: CARD_MESSAGES.yearInvalid })
    .int(CARD_MESSAGES.yearInvalid)
    .min(0, CARD_MESSAGES.yearInvalid)
    .max(2100, CARD_MESSAGES.yearInvalid),
  cvc: z.string({ required_error: CARD_MESSAGES.cvcInvalid }).max(8, CARD_MESSAGES.cvcInvalid),
});
export type CardForm = z.infer<typeof CardFormSchema>;

/** The demo provider's test numbers that fail like Stripe's (declined, insufficient funds, expired). */
export const DEMO_DECLINES: Record<string, string> = {
  "4000000000000002": "Your card was declined.",
  "4000000000009995": "Your card has insufficient funds.",
  "4000000000000069": "Your card has expired.",
};
