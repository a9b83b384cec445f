import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CardList, DeleteCardConfirm, type CardItem } from "./CardList";

const billing = { name: "Alex Morgan", email: "alex@example.com", line1: null, line2: null, city: null, postal_code: null, country: null };
const card = (id: string, over: Partial<CardItem>): CardItem => ({
  id,
  brand: "visa",
  last4: "4242",
  exp_month: 12,
  exp_year: 2031,
  isDefault: false,
  billing,
  ...over,
});
// React Router's links warn about useLayoutEffect on the server; nothing to see in a static render.
let quiet: ReturnType<typeof vi.spyOn>;
beforeAll(() => void (quiet = vi.spyOn(console, "error").mockImplementation(() => {})));
afterAll(() => quiet.mockRestore());

const render = (element: JSX.Element) =>
  renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "*", element }])} />).replace(/<!-- -->/g, "");

describe("two cards of one brand and last four are told apart", () => {
  const old = card("a", { exp_month: 12, exp_year: 2029, isDefault: true });
  const renewed = card("b", { exp_month: 3, exp_year: 2033 });
  const other = card("c", { exp_month: 12, exp_year: 2031 });

  it("the delete confirmation names the card by its expiry too", () => {
    const html = render(<DeleteCardConfirm card={renewed} closeHref="/payment-methods" />);
    expect(html).toContain("Are you sure you want to delete your Visa ending in 4242 (expires 03/2033)?");
    expect(render(<DeleteCardConfirm card={other} closeHref="/payment-methods" />)).toContain(
      "Are you sure you want to delete your Visa ending in 4242 (expires 12/2031)?",
    );
  });

  it("each card's buttons say which card they act on", () => {
    const html = render(<CardList cards={[old, renewed, other]} deleteHref={(id) => `/payment-methods?confirm=delete&id=${id}`} />);
    expect(html).toContain('aria-label="Delete Visa ending in 4242, expires 03/2033"');
    expect(html).toContain('aria-label="Delete Visa ending in 4242, expires 12/2031"');
    expect(html).toContain('aria-label="Mark As Default: Visa ending in 4242, expires 03/2033"');
    expect(html).toContain("Expires 12/2029");
  });
});
