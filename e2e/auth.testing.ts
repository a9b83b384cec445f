import { expect, type Page } from "@playwright/test";

export const DEMO = { email: "demo@kids-portal.test", password: "demo-parent-2026" };

export function uniqueEmail(prefix: string, project: string): string {
  return `${prefix}-${project}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function signIn(page: Page, email = DEMO.email, password = DEMO.password) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).or(page.locator("summary[aria-label='Open menu']")).first().click();
  await page.getByRole("link", { name: "Logout" }).click();
  await expect(page.getByRole("dialog", { name: "Log out" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
}
