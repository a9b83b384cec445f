import { expect, test } from "@playwright/test";
import { familyWithPhone } from "./family.testing";

// The dashboard's "Rate … new apps" panel (issue 52, finding 14), in the `js` and `no-js` projects: tapping an app
// opens its page with showRating=true, and the rating form opens 2.5 s later (spec 2 §9) — by the page's script
// with JavaScript, by a meta refresh without it.
test("tapping an app in the 'Rate … new apps' panel opens its rating form", async ({ page, baseURL }, info) => {
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "rate", apps: ["com.duolingo"] });
  try {
    await page.goto("/kids-device");
    const panel = page.getByTestId("rating-popup");
    await expect(panel.getByRole("heading", { name: "Rate Ivy's new apps" })).toBeVisible();
    await panel.getByRole("link", { name: /Duolingo/ }).click();
    await expect(page).toHaveURL(/\/application\?.*showRating=true/);
    const form = page.getByRole("dialog", { name: /Rate Duolingo/ });
    await expect(form).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(/modal=rating/);
    await expect(page).not.toHaveURL(/showRating/);
    await form.getByRole("group", { name: "Educational" }).getByText("4").click();
    await form.getByRole("button", { name: "Submit rating" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Thank you" })).toBeVisible();
    await expect(form).toHaveCount(0);
  } finally {
    await phone.close();
  }
});
