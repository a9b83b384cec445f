import { expect, type Page } from "@playwright/test";

/** Opens /requests from the side menu (it carries the kid and the phone); returns the page's URL. */
export async function openRequests(page: Page): Promise<string> {
  await page.goto("/kids-device");
  await page.locator("summary[aria-label='Open menu']").click();
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Request", exact: true }).click();
  await expect(page).toHaveURL(/\/requests\?/);
  await expect(page.getByRole("heading", { level: 1, name: "Requests" })).toBeVisible();
  return page.url();
}

/** The kid's request on the page: with JavaScript it arrives live, without it after a reload. */
export async function waitForRequest(page: Page, js: boolean, title: string | RegExp) {
  const row = page.getByTestId("request").filter({ hasText: title });
  if (js) await expect(row).toBeVisible({ timeout: 15_000 });
  else {
    await expect(async () => {
      await page.reload();
      await expect(row).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
  }
  return row;
}
