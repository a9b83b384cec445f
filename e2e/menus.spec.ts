import { expect, test } from "@playwright/test";
import { openKid, signInDemo } from "./dashboard.testing";

// Menus and popups behave (issue 11 item 2). With JavaScript: menus close after a choice, on a click outside and on
// Escape; popups are real dialogs (focus in, kept in, Escape and the backdrop close them, focus back to the opener);
// after client-side navigation focus goes to the new page's heading. Without JavaScript the same things stay
// URL-driven: a choice loads a page with its menus closed, a popup is `?modal=` and its × link closes it.

test("the side menu and the kid switcher close after a choice, on a click outside and on Escape", async ({ page }, info) => {
  const js = info.project.name === "js";
  await signInDemo(page);
  await openKid(page, "Mia");
  const menu = page.locator("details.side-menu");
  const switcher = page.locator(".kid-actions details.kid-switch");

  // A choice: the next page has both closed.
  await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  await menu.getByRole("link", { name: "Settings", exact: true }).click();
  await expect(page).toHaveURL(/\/global-settings/);
  await expect(menu).not.toHaveAttribute("open");
  await page.goto("/kids-device");
  await switcher.locator("summary").click();
  await page
    .getByRole("navigation", { name: "Kids" })
    .getByRole("link", { name: /^Leo · / })
    .click();
  // The choice's navigation has finished once the URL names the kid: /kids-device alone may already show Leo (the
  // heading then proves nothing), and a menu opened while that navigation is under way is closed when it lands.
  await expect(page).toHaveURL(/[?&]profileId=/);
  await expect(page.getByRole("heading", { level: 1, name: "Leo" })).toBeVisible();
  await expect(page.locator(".kid-actions details.kid-switch")).not.toHaveAttribute("open");
  if (!js) return; // without JavaScript a <details> opens and closes with its own button only

  // Escape closes the menu and puts focus back on its button.
  await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  await page.keyboard.press("Escape");
  await expect(menu).not.toHaveAttribute("open");
  await expect(menu.locator("summary")).toBeFocused();
  // A click outside closes it.
  await switcher.locator("summary").click();
  await expect(switcher).toHaveAttribute("open", "");
  await page.getByRole("heading", { level: 1 }).click();
  await expect(switcher).not.toHaveAttribute("open");
  await switcher.locator("summary").click();
  await page.keyboard.press("Escape");
  await expect(switcher).not.toHaveAttribute("open");
  await expect(switcher.locator("summary")).toBeFocused();
});

test("a popup keeps focus and returns it; Escape and the backdrop close it", async ({ page }, info) => {
  const js = info.project.name === "js";
  await signInDemo(page);
  await openKid(page, "Mia");
  const opener = page.getByRole("link", { name: "Edit kid" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Edit kid" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/modal=edit/);
  if (!js) {
    // URL-driven: the × link closes it.
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).not.toHaveURL(/modal=edit/);
    return;
  }
  // Focus moved in, and Tab (forwards and backwards) never leaves it.
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  // Escape closes it and focus returns to what opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page).not.toHaveURL(/modal=edit/);
  await expect(opener).toBeFocused();
  // A click on the backdrop closes it too.
  await opener.click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test("after client-side navigation focus goes to the new page's heading", async ({ page }, info) => {
  const js = info.project.name === "js";
  await signInDemo(page);
  await openKid(page, "Mia");
  await page.getByRole("link", { name: "Device info" }).click();
  const heading = page.getByRole("heading", { level: 1, name: "Device Info" });
  await expect(heading).toBeVisible();
  // Without JavaScript the browser loads the page and starts at its top, as usual.
  if (js) await expect(heading).toBeFocused();
});
