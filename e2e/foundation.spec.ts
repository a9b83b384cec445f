import { expect, test } from "@playwright/test";
import { DEMO, signIn, signOut, uniqueEmail } from "./auth.testing";

// Each journey runs twice: in the `js` and the `no-js` project.

test("register, sign in, reach the dashboard, sign out", async ({ page }, info) => {
  const email = uniqueEmail("new-parent", info.project.name);
  await page.goto("/login");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(/\/registration$/);
  await page.getByLabel("Parent name").fill("Sam Rivera");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("Password must be at least 8 characters.")).toBeVisible();
  await expect(page.getByLabel("Parent name")).toHaveValue("Sam Rivera"); // nothing lost
  await page.getByLabel("Password", { exact: true }).fill("a-good-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  // Sign-up signs the new parent in: straight to the dashboard.
  await expect(page).toHaveURL(/\/kids-device$/);
  await expect(page.getByText("Welcome! Your account has been created.")).toBeVisible();
  await expect(page.getByText("No devices have been added yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go To Profile" })).toHaveAttribute("href", "/parent-profile");
  await expect(page.getByRole("link", { name: "Go To Payment History" })).toHaveAttribute("href", "/payment-history");
  await expect(page.getByText("You are using the default password.")).toHaveCount(0);

  await signOut(page);
  await page.goto("/kids-device");
  await expect(page).toHaveURL(/\/login/);
});

test("a duplicate email is refused with a clear message", async ({ page }) => {
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill("Someone");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password", { exact: true }).fill("another-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("An account with this email already exists. Please sign in instead.")).toBeVisible();
});

test("the demo parent lands on the dashboard with the default-password warning", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/kids-device\?useDefaultPassword=true/);
  const warning = page.getByText("You are using the default password.");
  await expect(warning).toBeVisible();
  await page.getByRole("link", { name: "Change your password" }).click();
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByRole("heading", { name: "Change Password" })).toBeVisible();
});

test("a wrong password shows the server's message and the button works again", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  const button = page.getByRole("button", { name: "Sign in" });
  await button.click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByLabel("Email")).toHaveValue(DEMO.email);
  await expect(button).toBeEnabled();
  await page.getByLabel("Password", { exact: true }).fill(DEMO.password);
  await button.click();
  await expect(page).toHaveURL(/\/kids-device/);
});

test("an unknown route shows the not-found page", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! You're lost." })).toBeVisible();
  await expect(page.getByText("The page you are looking for was not found.")).toBeVisible();
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/login/); // signed out: Home is guarded
});

test("a page the parent may not open says they have no access, not that something went wrong", async ({ page }) => {
  await signIn(page);
  const response = await page.goto("/server-logs"); // operators only
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();
  await expect(page.getByText("Your account can't open this page: it is only for the people who run Kids Portal.")).toBeVisible();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await page.getByRole("link", { name: "Contact us" }).click();
  await expect(page).toHaveURL(/\/contact$/);
});

test("/contact keeps the app's header and menu when signed in, and the public page when signed out", async ({ page }) => {
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1, name: "Need a help?" })).toBeVisible();
  await expect(page.locator("summary[aria-label='Open menu']")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/login");

  await signIn(page);
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1, name: "Need a help?" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Kids Portal dashboard" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Alex Morgan" })).toBeVisible();
  await page.locator("summary[aria-label='Open menu']").click();
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Apps", exact: true }).click();
  await expect(page).toHaveURL(/\/apps\?/);
});

test("a guarded page while signed out goes to /login and comes back after sign-in", async ({ page }) => {
  await page.goto("/change-password");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fchange-password/);
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/change-password$/);
});

test("the side menu lists every item and opens without JavaScript", async ({ page }) => {
  await signIn(page);
  await page.locator("summary[aria-label='Open menu']").click();
  const menu = page.getByRole("navigation", { name: "Main menu" });
  for (const item of [
    "Dashboard",
    "Apps",
    "Request",
    "Browser Logs",
    "Web Filter",
    "Settings",
    "Reports",
    "Webhooks",
    "Alerts",
    "Alert Settings",
    "Payment History",
    "Payment Methods",
    "Change Password",
    "Logout",
    "Need a help?",
  ]) {
    await expect(menu.getByRole("link", { name: item, exact: true })).toBeVisible();
  }
});

test("changing the password ends every session; the old password is refused", async ({ page, browser }, info) => {
  const email = uniqueEmail("pw-change", info.project.name);
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill("Pat Lee");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("first-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/kids-device/); // sign-up signs the new parent in

  // A second device signed in as the same parent.
  const other = await browser.newContext({ javaScriptEnabled: info.project.name === "js" });
  const otherPage = await other.newPage();
  await signIn(otherPage, email, "first-passphrase");

  await page.goto("/change-password");
  await page.getByLabel("Current password", { exact: true }).fill("wrong-one");
  await page.getByLabel("New password", { exact: true }).fill("second-passphrase");
  await page.getByLabel("Confirm password", { exact: true }).fill("second-passphrase");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Your current password is incorrect.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Change Password" })).toBeEnabled();

  await page.getByLabel("Current password", { exact: true }).fill("first-passphrase");
  await page.getByLabel("New password", { exact: true }).fill("second-passphrase");
  await page.getByLabel("Confirm password", { exact: true }).fill("different-passphrase");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("New password and confirm password do not match.")).toBeVisible();

  await page.getByLabel("Current password", { exact: true }).fill("first-passphrase");
  await page.getByLabel("New password", { exact: true }).fill("second-passphrase");
  await page.getByLabel("Confirm password", { exact: true }).fill("second-passphrase");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("Your password has been changed. Please sign in again.")).toBeVisible();

  await otherPage.goto("/kids-device");
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("first-passphrase");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid email or password.")).toBeVisible();
  await signIn(page, email, "second-passphrase");
});
