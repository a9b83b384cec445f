import { expect, test, type Page } from "@playwright/test";

// Small things on a phone-sized screen (issue 11 item 5): a long email wraps instead of widening the page, and the
// sessions table reads as one card per session. Both projects.
test.use({ viewport: { width: 390, height: 844 } });

async function noSideways(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${path} scrolls sideways`).toBeLessThanOrEqual(client);
}

test("a long email wraps and the sessions table reads on a phone", async ({ page }, info) => {
  const email = `a-very-long-email-address-for-a-parent-${info.project.name}-${Date.now()}@an-unusually-long-family-domain.example.com`;
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill("Robin Longname");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("robin-long-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  for (const path of ["/kids-device", "/parent-profile", "/account", "/contact"]) await noSideways(page, path);
  // On /account each session is a card whose values carry their column's name.
  await page.goto("/account");
  const cell = page.locator(".sessions-table td[data-label='Signed in']").first();
  await expect(cell).toBeVisible();
  expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe("block");
  expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Signed in: "');
});
