import { expect, type Page } from "@playwright/test";
import { SimulatedPhone } from "../device-service/simulator/phone";
import { uniqueEmail } from "./auth.testing";

export interface FamilyOptions {
  /** Names this family's parent email and phone serial number (one per spec or journey). */
  tag: string;
  /** The kid added after sign-up (default Ivy, born May 2015). */
  kid?: { name: string; birthMonth: string; birthYear: string };
  /** Apps the phone has and reports (`installed_apps`); a system app is marked so. */
  apps: (string | { packageName: string; systemApp: boolean })[];
  /** Minutes of use today per app, generated on the phone and reported through its enforcer. */
  usedToday?: Record<string, number>;
  /** How long the phone takes to act on a command (so "sent" or "installing" is seen before it is done). */
  ackDelayMs?: number;
}

/**
 * A new family with a simulated phone: sign up (which signs the parent in), add the kid from the empty dashboard,
 * enroll the simulator (run here) with the QR code's token, connect it and report its apps (and today's use).
 * Leaves the page on the dashboard's "Add a phone" popup.
 */
export async function familyWithPhone(
  page: Page,
  baseURL: string,
  project: string,
  o: FamilyOptions,
): Promise<{ phone: SimulatedPhone; serialNumber: string }> {
  const kid = o.kid ?? { name: "Ivy", birthMonth: "May", birthYear: "2015" };
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill("Sam Family");
  await page.getByLabel("Email").fill(uniqueEmail(o.tag.toLowerCase(), project));
  await page.getByLabel("Password", { exact: true }).fill("sam-family-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/kids-device/); // sign-up signs the new parent in
  const form = page.getByRole("form", { name: "Add your kid" });
  await form.getByLabel("Kid's name").fill(kid.name);
  await form.getByLabel("Birth month").selectOption(kid.birthMonth);
  await form.getByLabel("Birth year").fill(kid.birthYear);
  await form.getByRole("button", { name: "Add kid" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a phone" });
  await dialog.getByRole("button", { name: "Show QR code" }).click();
  const token = new URL((await dialog.locator("code").textContent()) ?? "").searchParams.get("token")!;
  const serialNumber = `E2E-${o.tag.toUpperCase()}-${project}-${Date.now()}`;
  const phone = new SimulatedPhone({
    baseUrl: baseURL,
    serialNumber,
    reconnect: false,
    ...(o.ackDelayMs ? { ackDelayMs: o.ackDelayMs } : {}),
  });
  await phone.enroll(token);
  await phone.connect();
  const apps = o.apps.map((a) => (typeof a === "string" ? { packageName: a } : a));
  for (const a of apps) phone.state.installed.add(a.packageName);
  await phone.send("installed_apps", { apps });
  for (const [pkg, minutes] of Object.entries(o.usedToday ?? {})) await phone.enforcer.useApp(pkg, minutes);
  return { phone, serialNumber };
}
