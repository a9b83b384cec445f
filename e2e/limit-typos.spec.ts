import { expect, test, type Page } from "@playwright/test";
import { signInDemo, openKid } from "./dashboard.testing";

// Typos in a daily limit (issue 52, finding 15), in the `js` and `no-js` projects: blank, "-15", "1e5" and a huge
// number get the spec's messages (spec 2 §5) on the app page and the category page, with JavaScript on (checked
// in the browser by the action's own schema) and off (the action) — never a quiet "no limit" or 24 hours.
const TYPOS = [
  ["", "Please enter time."],
  ["-15", "Please enter time in positive."],
  ["1e5", "Please enter whole minutes from 0 to 1,440."],
  ["100000", "Please enter whole minutes from 0 to 1,440."],
] as const;

async function tryTypos(page: Page, formName: string) {
  const form = () => page.getByRole("form", { name: formName, exact: true });
  const saved =
    (await page
      .getByText(/^Today: /)
      .first()
      .textContent()) ?? "";
  for (const [typed, message] of TYPOS) {
    if ((await form().getByRole("button", { name: "Daily limit", exact: true }).getAttribute("aria-pressed")) !== "true")
      await form().getByRole("button", { name: "Daily limit", exact: true }).click();
    const minutes = form().getByRole("spinbutton", { name: "Minutes a day" });
    await minutes.fill(typed);
    await form().getByRole("button", { name: "Save" }).click();
    await expect(form().getByRole("alert"), `${formName}: ${JSON.stringify(typed)}`).toHaveText(message);
    await expect(page.getByTestId("toast").filter({ hasText: /daily limit|Saved/ })).toHaveCount(0);
    // Nothing was saved: the page still says what it said before.
    await expect(page.getByText(/^Today: /).first()).toHaveText(saved);
  }
}

test("a typo in an app's or a category's daily limit gets the spec's message and saves nothing", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Mia");
  const app = page.getByTestId("apps-list").getByRole("link").first();
  await app.click();
  await expect(page).toHaveURL(/\/application\?/);
  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await expect(page).toHaveURL(/tab=usage/);
  await tryTypos(page, "Daily limit");

  await openKid(page, "Mia");
  await page.getByTestId("categories-list").getByRole("link").first().click();
  await expect(page).toHaveURL(/\/category\?/);
  await tryTypos(page, "Category daily limit");
});
