import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatPounds, PaymentHistory, type PaymentLine } from "./PaymentHistory";

const line = (over: Partial<PaymentLine>): PaymentLine => ({
  id: "p1",
  productName: "Kids Portal Premium",
  imageUrl: null,
  isTrial: false,
  subscriptionCode: null,
  subscriptionCodeUsed: false,
  expired: false,
  expiryAt: "2026-12-01T00:00:00.000Z",
  profileName: "Mia",
  serialNumber: "DEMO-MIA-0001",
  unitAmount: 499,
  status: "Success",
  ...over,
});

describe("payment history list", () => {
  it("prices in pounds from unit_amount / 100", () => {
    expect(formatPounds(499)).toBe("£4.99");
    expect(formatPounds(1000)).toBe("£10.00");
  });

  it("the empty state says how to buy", () => {
    const html = renderToStaticMarkup(<PaymentHistory payments={[]} page={1} pages={1} shopUrl="https://shop.example/" />);
    expect(html).toContain("You have no payments yet.");
    expect(html).toContain('href="https://shop.example/"');
  });

  it("Trial hides the price; Used and Expired badges; Fail in the pending style, others confirmed", () => {
    const html = renderToStaticMarkup(
      <PaymentHistory
        payments={[
          line({ id: "a", isTrial: true, unitAmount: 0, subscriptionCode: "T1", subscriptionCodeUsed: true, expired: true }),
          line({ id: "b", status: "Fail", unitAmount: 499 }),
        ]}
        page={1}
        pages={1}
        shopUrl="https://shop.example/"
      />,
    );
    const [trial, fail] = html.split('data-testid="payment-item"').slice(1);
    expect(trial).toContain(">Trial<");
    expect(trial).toContain(">Used<");
    expect(trial).toContain(">Expired<");
    expect(trial).not.toContain("£");
    expect(trial).toContain('pay-status-confirmed">Success<');
    expect(fail).toContain("£4.99");
    expect(fail).toContain('pay-status-pending">Fail<');
    expect(fail).toContain("Mia · DEMO-MIA-0001");
    expect(fail).toContain("Expires on 1 Dec 2026");
  });
});
