import { expect, test } from "@playwright/test";
import { expectToast, signInDemo } from "./dashboard.testing";

// Runs in the `js` and the `no-js` projects against the demo family: make a token (shown once), use it on the API,
// see its last use, revoke it, and see the API refuse it.

test("API tokens: make a read token, use it, see its last use, revoke it; the API then refuses it", async ({ page, request }, info) => {
  const name = `E2E ${info.project.name} ${Date.now()}`;
  await signInDemo(page);
  await page.locator("summary[aria-label='Open menu']").click();
  await page.getByRole("link", { name: "API Tokens" }).click();
  await expect(page).toHaveURL(/\/api-tokens$/);
  await page.goto("/api-tokens");
  await expect(page.getByRole("heading", { level: 1, name: "API Tokens" })).toBeVisible();

  // A nameless token is refused with a clear message.
  const nameField = page.getByLabel("Name");
  await nameField.fill(" ");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("Please give the token a name.")).toBeVisible();

  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Read only").check();
  await page.getByLabel("Expires after").selectOption("7");
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByLabel("Token", { exact: true });
  await expect(shown).toHaveValue(/^kp_[A-Za-z0-9_-]{43}$/);
  const token = await shown.inputValue();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("Read only");
  await expect(row).toContainText("Never");

  const kids = await request.get("/api/v1/device/kids-list", { headers: { Authorization: `Bearer ${token}` } });
  expect(kids.status()).toBe(200);
  expect(((await kids.json()) as { respones_msg: string }).respones_msg).toBeTruthy();

  // Shown once: a reload lists the token without it, with its last use.
  await page.goto("/api-tokens");
  await expect(page.getByLabel("Token", { exact: true })).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await expect(page.getByRole("row", { name: new RegExp(name) })).not.toContainText("Never");

  await page
    .getByRole("row", { name: new RegExp(name) })
    .getByRole("button", { name: `Revoke ${name}` })
    .click();
  await expectToast(page, "success", "The token has been revoked. It no longer works.");
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Revoked");
  const refused = await request.get("/api/v1/device/kids-list", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ is_logout: 1 });
});
