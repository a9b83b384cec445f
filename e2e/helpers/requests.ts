import { expect, type Page } from "@playwright/test";
import { SimulatedPhone } from "../../device-service/simulator/phone";
import { uniqueEmail } from "./auth";

/** A new family (sign up, add a kid) whose phone, the simulator run here, reports the given apps. */
export async function familyWithPhone(page: Page, baseURL: string, project: string, tag: string, apps: string[]): Promise<SimulatedPhone> {
  const email = uniqueEmail(`requests-${tag}`, project);
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill("Robin Requests");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("robin-requests-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/kids-device/); // sign-up signs the new parent in
  const form = page.getByRole("form", { name: "Add your kid" });
  await form.getByLabel("Kid's name").fill("Ada");
  await form.getByLabel("Birth month").selectOption("June");
  await form.getByLabel("Birth year").fill("2014");
  await form.getByRole("button", { name: "Add kid" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a phone" });
  await dialog.getByRole("button", { name: "Show QR code" }).click();
  const token = new URL((await dialog.locator("code").textContent()) ?? "").searchParams.get("token")!;
  const phone = new SimulatedPhone({ baseUrl: baseURL, serialNumber: `E2E-REQ-${tag}-${project}-${Date.now()}`, reconnect: false });
  await phone.enroll(token);
  await phone.connect();
  for (const a of apps) phone.state.installed.add(a);
  await phone.send("installed_apps", { apps: apps.map((packageName) => ({ packageName })) });
  return phone;
}

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
