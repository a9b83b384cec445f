import { expect, test, type Page } from "@playwright/test";
import { expectToast, signInDemo } from "./dashboard.testing";

// Runs in the `js` and the `no-js` projects against the demo family, with the local (demo) payments provider.

async function fillCard(page: Page, card: { name: string; number: string; month: string; year: string; cvc: string }) {
  const dialog = page.getByRole("dialog", { name: "Add card" });
  await dialog.getByLabel("Name on card").fill(card.name);
  await dialog.getByLabel("Card number").fill(card.number);
  await dialog.getByLabel("Expiry month").fill(card.month);
  await dialog.getByLabel("Expiry year").fill(card.year);
  await dialog.getByLabel("CVC").fill(card.cvc);
  await dialog.getByRole("button", { name: "Submit" }).click();
}

test("cards: add a demo card, clear messages for a wrong number, a past expiry and the same card twice, mark it default, delete the other", async ({
  page,
}, info) => {
  const name = `E2E ${info.project.name}`;
  // Both projects may run against one demo family: each saves a card of its own (the same card twice is refused).
  const year = info.project.name === "js" ? "2031" : "2032";
  await signInDemo(page);
  await page.locator("summary[aria-label='Open menu']").click();
  await page.getByRole("link", { name: "Payment Methods" }).click();
  await expect(page).toHaveURL(/\/payment-methods$/);
  // The side menu stays open after a client-side navigation (the shell's <details>): start from a fresh load.
  await page.goto("/payment-methods");
  await expect(page.getByRole("heading", { level: 1, name: "Payment Methods" })).toBeVisible();
  const cards = page.getByTestId("payment-card");
  const defaultCard = cards.filter({ has: page.locator(".card-star") });
  await expect(defaultCard).toHaveCount(1);
  await expect(defaultCard.getByRole("button", { name: /Mark As Default/ })).toHaveCount(0);
  await expect(defaultCard.getByRole("link", { name: /Delete/ })).toHaveCount(0);
  const previousDefault = ((await defaultCard.locator("h2").textContent()) ?? "").replace("Default card:", "").trim();
  const previousName = (await defaultCard.locator(".card-billing").nth(1).textContent())!.trim();
  const previousExpiry = (await defaultCard.locator(".card-billing").first().textContent())!.replace("Expires", "").trim();
  expect(previousDefault).toMatch(/^(Visa|Mastercard) ending in \d{4}$/);

  await page.getByRole("link", { name: "Add card" }).click();
  await expect(page).toHaveURL(/modal=add/);
  const dialog = page.getByRole("dialog", { name: "Add card" });
  await expect(dialog.getByRole("note")).toContainText("This is a demo card form");

  await fillCard(page, { name, number: "4242 4242 4242 4241", month: "12", year, cvc: "123" });
  await expect(dialog.getByText("Your card number is invalid.")).toBeVisible();
  // A number of no known brand that fails its check digit is invalid too (not a list of the brands taken).
  await fillCard(page, { name, number: "1234 5678 1234 5678", month: "12", year, cvc: "123" });
  await expect(dialog.getByText("Your card number is invalid.")).toBeVisible();
  await expect(dialog.getByText(/We accept/)).toHaveCount(0);
  await expect(dialog.getByLabel("Card number")).toHaveValue("");
  await expect(dialog.getByLabel("CVC")).toHaveValue("");
  await expect(dialog.getByLabel("Name on card")).toHaveValue(name);

  await fillCard(page, { name, number: "4242 4242 4242 4242", month: "1", year: "2020", cvc: "123" });
  await expect(dialog.getByText("Your card's expiry date is in the past.")).toBeVisible();
  await expect(dialog.getByLabel("Card number")).toHaveValue("");

  await fillCard(page, { name, number: "4242 4242 4242 4242", month: "12", year, cvc: "123" });
  await expectToast(page, "success", "Your demo card Visa ending in 4242 has been added.");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const mine = cards.filter({ hasText: name });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("Visa ending in 4242");
  await expect(mine).toContainText(`Expires 12/${year}`);
  await expect(mine).toContainText("demo@kids-portal.test");

  // The same card again: refused with a message, nothing saved twice.
  await page.getByRole("link", { name: "Add card" }).click();
  await fillCard(page, { name, number: "4242 4242 4242 4242", month: "12", year, cvc: "123" });
  await expect(dialog.getByText(`This card is already saved: Visa ending in 4242, expires 12/${year}.`)).toBeVisible();
  await page.goto("/payment-methods");
  await expect(mine).toHaveCount(1);

  await mine.getByRole("button", { name: /Mark As Default/ }).click();
  await expectToast(page, "success", "Your default card has been changed.");
  await expect(mine.locator(".card-star")).toHaveCount(1);
  await expect(mine.getByRole("button", { name: /Mark As Default/ })).toHaveCount(0);
  await expect(mine.getByRole("link", { name: /Delete/ })).toHaveCount(0);

  const other = cards.filter({ hasText: previousDefault }).filter({ hasText: previousName });
  await expect(other).toHaveCount(1);
  await other.getByRole("link", { name: /Delete/ }).click();
  await expect(page).toHaveURL(/confirm=delete&id=/);
  const confirm = page.getByRole("dialog", { name: "Delete card" });
  // Two cards may share brand and last four: the question names the card by its expiry too.
  await expect(confirm).toContainText(`Are you sure you want to delete your ${previousDefault} (expires ${previousExpiry})?`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "success", "Your card has been deleted.");
  await expect(other).toHaveCount(0);
  await expect(mine).toHaveCount(1);
});

test("payment history: product, Trial, Used and Expired badges, device, price in pounds, Fail in the pending style", async ({ page }) => {
  await signInDemo(page);
  await page.locator("summary[aria-label='Open menu']").click();
  await page.getByRole("link", { name: "Payment History" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment History" })).toBeVisible();
  const items = page.getByTestId("payment-item");
  await expect(items).toHaveCount(4);
  const failed = items.first();
  await expect(failed.locator(".pay-status-pending")).toHaveText("Fail");
  await expect(failed).toContainText("£4.99");
  await expect(failed).toContainText("Leo · DEMO-LEO-0002");
  const trial = items.filter({ has: page.locator(".badge-trial") });
  await expect(trial).toHaveCount(1);
  await expect(trial.locator(".badge-trial")).toHaveText("Trial");
  await expect(trial.locator(".pay-price")).toHaveCount(0);
  await expect(trial.locator(".pay-status-confirmed")).toBeVisible();
  await expect(items.locator(".badge-used")).toHaveCount(2);
  await expect(items.locator(".badge-used").first()).toHaveText("Used");
  await expect(items.locator(".badge-expired").first()).toHaveText("Expired");
  await expect(items.filter({ hasText: "KPM-LEO-0926" }).locator(".badge-expired")).toHaveCount(1);
  await expect(items.filter({ hasText: "KPM-MIA-1126" })).toContainText(/Expires on \d{1,2} \w{3} \d{4}/);
  await expect(items.filter({ hasText: "KPM-MIA-1126" }).locator(".badge-expired")).toHaveCount(0);
});
