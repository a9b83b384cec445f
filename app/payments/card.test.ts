import { describe, expect, it } from "vitest";
import { brandOf, brandSentenceCase, CARD_MESSAGES, checkCard, duplicateCardMessage, expiryPassed, luhnValid, sameCard } from "./card";

const NOW = new Date("2026-11-23T12:00:00Z");
const ok = { exp_month: 12, exp_year: 2030, cvc: "123" };

describe("card checks (local provider)", () => {
  it.each([
    ["4242424242424242", true],
    ["4242 4242 4242 4241".replace(/ /g, ""), false],
    ["378282246310005", true],
    ["5555555555554444", true],
    ["0", true],
    ["1", false],
    ["12a4", false],
  ])("luhn %s → %s", (n, want) => {
    expect(luhnValid(n)).toBe(want);
  });

  it.each([
    ["4242424242424242", "visa"],
    ["5555555555554444", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["378282246310005", "amex"],
    ["6011111111111117", "discover"],
    ["3056930009020004", "diners"],
    ["3566002020360505", "jcb"],
    ["6200000000000005", "unionpay"],
    ["9999999999999995", null],
  ])("brand of %s is %s", (n, brand) => {
    expect(brandOf(n)).toBe(brand);
  });

  it.each([
    ["visa", "Visa"],
    ["mastercard", "Mastercard"],
    ["american_express", "American express"],
    ["", "Card"],
  ])("sentence case %s → %s", (b, want) => {
    expect(brandSentenceCase(b)).toBe(want);
  });

  it("keeps only brand, last4 and expiry of a good card (spaces allowed)", () => {
    const r = checkCard({ number: "4242 4242 4242 4242", ...ok }, NOW);
    expect(r).toEqual({ ok: true, card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 } });
    expect(JSON.stringify(r)).not.toContain("424242424242");
    expect(JSON.stringify(r)).not.toContain("123");
  });

  it.each([
    ["", CARD_MESSAGES.numberRequired],
    ["4242", CARD_MESSAGES.numberIncomplete],
    ["424242424242", CARD_MESSAGES.numberIncomplete],
    ["4242424242424241", CARD_MESSAGES.numberInvalid],
    ["42424242424242420", CARD_MESSAGES.numberInvalid],
    ["4242x24242424242", CARD_MESSAGES.numberInvalid],
    // A number of no known brand that is no card number at all (check digit, length) is invalid, not "we accept …".
    ["1234567812345678", CARD_MESSAGES.numberInvalid],
    ["1234 5678 1234 5678", CARD_MESSAGES.numberInvalid],
    ["9999999999999999", CARD_MESSAGES.numberInvalid],
    ["99999999999999999995", CARD_MESSAGES.numberInvalid],
    // A real-looking number of a brand not taken: the accepted brands help there.
    ["9999999999999995", CARD_MESSAGES.brandUnknown],
  ])("number %j → %s", (number, message) => {
    const r = checkCard({ number, ...ok }, NOW);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems).toContainEqual({ field: "number", message });
  });

  it.each([
    [10, 2026, true],
    [11, 2026, false],
    [12, 2026, false],
    [1, 2027, false],
    [12, 2025, true],
  ])("expiry %i/%i passed: %s", (m, y, passed) => {
    expect(expiryPassed(m, y, NOW)).toBe(passed);
  });

  it("a past expiry, a bad month and two-digit years", () => {
    const past = checkCard({ number: "4242424242424242", exp_month: 10, exp_year: 2026, cvc: "123" }, NOW);
    expect(past.ok || past.problems).toEqual([{ field: "exp_year", message: CARD_MESSAGES.expired }]);
    const month = checkCard({ number: "4242424242424242", exp_month: 13, exp_year: 2030, cvc: "123" }, NOW);
    expect(month.ok || month.problems).toEqual([{ field: "exp_month", message: CARD_MESSAGES.monthInvalid }]);
    const short = checkCard({ number: "4242424242424242", exp_month: 1, exp_year: 31, cvc: "123" }, NOW);
    expect(short.ok && short.card.exp_year).toBe(2031);
  });

  it.each([
    ["4242424242424242", "12", CARD_MESSAGES.cvcIncomplete],
    ["4242424242424242", "12345", CARD_MESSAGES.cvcInvalid],
    ["4242424242424242", "12a", CARD_MESSAGES.cvcInvalid],
    ["378282246310005", "123", CARD_MESSAGES.cvcIncomplete],
    ["378282246310005", "12345", CARD_MESSAGES.cvcInvalid],
  ])("CVC for %s: %j → %s", (number, cvc, message) => {
    const r = checkCard({ number, exp_month: 1, exp_year: 2030, cvc }, NOW);
    expect(r.ok || r.problems).toEqual([{ field: "cvc", message }]);
  });

  it("Amex takes a 4-digit CVC; other cards 3 or 4 digits", () => {
    expect(checkCard({ number: "378282246310005", exp_month: 1, exp_year: 2030, cvc: "1234" }, NOW).ok).toBe(true);
    expect(checkCard({ number: "4242424242424242", exp_month: 1, exp_year: 2030, cvc: "1234" }, NOW).ok).toBe(true);
  });

  it("the invalid-number message is the spec's words", () => {
    expect(CARD_MESSAGES.numberInvalid).toBe("Your card number is invalid.");
  });

  it("a card is the same card when brand, last four and expiry match", () => {
    const visa = { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2031 };
    expect(sameCard(visa, { ...visa, brand: "Visa" })).toBe(true);
    expect(sameCard(visa, { ...visa, exp_year: 2032 })).toBe(false);
    expect(sameCard(visa, { ...visa, last4: "4243" })).toBe(false);
    expect(sameCard(visa, { ...visa, brand: "mastercard" })).toBe(false);
    expect(duplicateCardMessage(visa)).toBe("This card is already saved: Visa ending in 4242, expires 12/2031.");
  });
});
