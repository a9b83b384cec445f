import { expect, type Locator, type Page } from "@playwright/test";
import { signIn } from "./auth.testing";

export interface KidIds {
  profileId: string;
  serialNumber: string;
}

/** Opens a demo kid's dashboard through the switcher and returns its ids (read from the page's own links). */
export async function openKid(page: Page, name: "Mia" | "Leo", extra = ""): Promise<KidIds> {
  await page.goto("/kids-device");
  await page.locator(".kid-actions .kid-switch > summary").click();
  // Each kid is listed with its phone state: "Mia · Online now".
  const link = page.getByRole("navigation", { name: "Kids" }).getByRole("link", { name: new RegExp(`^${name} · `) });
  const href = (await link.getAttribute("href"))!;
  const profileId = new URL(href, "http://x").searchParams.get("profileId")!;
  await page.goto(`/kids-device?profileId=${profileId}${extra}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const settings = (await page.getByRole("link", { name: "Global Settings" }).first().getAttribute("href"))!;
  const serialNumber = new URL(settings, "http://x").searchParams.get("serialNumber")!;
  return { profileId, serialNumber };
}

export async function signInDemo(page: Page) {
  await signIn(page);
}

/**
 * A toast carrying the server's message (every successful call shows one): the newest with that text, as toasts
 * stack (app/components/toast-stack.ts).
 */
export async function expectToast(page: Page, type: "success" | "error" | "info", text?: string | RegExp): Promise<Locator> {
  const all = page.getByTestId("toast");
  const toast = (text ? all.filter({ hasText: text }) : all).last();
  await expect(toast).toBeVisible();
  await expect(toast).toHaveClass(new RegExp(`toast-${type}`));
  if (text) await expect(toast).toContainText(text);
  return toast;
}

/** Reloads (JavaScript off) or waits for the live refresh (JavaScript on) until `check` passes. */
export async function eventually(page: Page, js: boolean, check: () => Promise<void>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      if (!js) await page.reload();
      else await page.waitForTimeout(500);
    }
  }
}
