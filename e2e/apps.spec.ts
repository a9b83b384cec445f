import { expect, test, type Locator, type Page } from "@playwright/test";
import { eventually, expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";

// Apps and categories (issue 12), in the `js` and `no-js` projects: a new family whose phone (the simulator, run
// here) reports two Education apps and today's use of them, so the journey does not depend on the time of day.
const DUOLINGO = "com.duolingo";
const KHAN = "org.khanacademy.android";

/** The daily-limit form: switch on (15), then + until `minutes`, then Save. Works with and without JavaScript. */
async function setLimit(page: Page, form: string, minutes: number) {
  const f = () => page.getByRole("form", { name: form });
  if ((await f().getByRole("button", { name: "Daily limit", exact: true }).getAttribute("aria-pressed")) !== "true")
    await f().getByRole("button", { name: "Daily limit", exact: true }).click();
  await expect(f().getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue("15");
  for (let m = 15; m < minutes; m += 15) {
    await f().getByRole("button", { name: "Increase minutes a day by 15 minutes" }).click();
    await expect(f().getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue(String(m + 15));
  }
  await f().getByRole("button", { name: "Save" }).click();
}

/** What makes a tab look like a tab: its shape, colours and weight. */
async function tabStyle(tab: Locator) {
  return tab.evaluate((el) => {
    const c = getComputedStyle(el);
    return { background: c.backgroundColor, color: c.color, radius: c.borderRadius, weight: c.fontWeight, minHeight: c.minHeight };
  });
}

/** A badge is as wide as its text, not the width of the card it sits in. */
async function expectSizedToText(badge: Locator) {
  const [own, parent] = await badge.evaluate((el) => [el.getBoundingClientRect().width, el.parentElement!.getBoundingClientRect().width]);
  expect(own).toBeGreaterThan(0);
  expect(own).toBeLessThan(parent * 0.8);
}

test("app and category limits reach the phone (orange, then green); an over-limit app cannot be re-enabled; a rating shows", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  // The phone takes a moment to apply a policy, so "sent" (orange) is seen before "confirmed" (green).
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, {
    tag: "apps",
    apps: [DUOLINGO, KHAN],
    usedToday: { [DUOLINGO]: 40, [KHAN]: 10 },
    ackDelayMs: 2_500,
  });
  try {
    // From the dashboard's most used apps into the app.
    await page.goto("/kids-device");
    const dashboardTab = await tabStyle(page.getByRole("navigation", { name: "Dashboard sections" }).locator("[aria-current=page]"));
    // App icons are drawn one way on every page: the same picture in the dashboard's list and on the app page.
    const listedIcon = await page
      .getByTestId("apps-list")
      .getByRole("link", { name: /Duolingo/ })
      .locator("img.app-icon")
      .getAttribute("src");
    expect(listedIcon).toBeTruthy();
    await page
      .getByTestId("apps-list")
      .getByRole("link", { name: /Duolingo/ })
      .click();
    await expect(page).toHaveURL(/\/application\?/);
    await expect(page.locator(".app-hero img.app-icon")).toHaveAttribute("src", listedIcon!);
    await expect(page.getByRole("heading", { level: 1, name: /Duolingo/ })).toBeVisible();
    // Installed on the kid's phone, so the page says so (issue 53); the tabs are links with the open one current.
    await expect(page.getByTestId("on-phone")).toHaveText("On Ivy's phone");
    const tabs = page.getByRole("navigation", { name: "App sections" });
    await expect(tabs.getByRole("link", { name: "Info", exact: true })).toHaveAttribute("aria-current", "page");
    // One tab style on every kid page: the app page's open tab looks like the dashboard's.
    expect(await tabStyle(tabs.locator("[aria-current=page]"))).toEqual(dashboardTab);
    await expect(tabs.getByRole("link", { name: "Usage", exact: true })).not.toHaveAttribute("aria-current", /.*/);
    const appUrl = new URL(page.url());
    await page.getByRole("link", { name: "Usage", exact: true }).click();
    await expect(page).toHaveURL(/tab=usage/);
    await expect(tabs.getByRole("link", { name: "Usage", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(tabs.getByRole("link", { name: "Info", exact: true })).not.toHaveAttribute("aria-current", /.*/);
    // The usage chart's two SVGs (phone and wide): from the HTML without JavaScript, from the data with it.
    const chartSvgs = page.locator("figure.chart .chart-svg svg");
    await expect(chartSvgs).toHaveCount(2);

    await setLimit(page, "Daily limit", 30);
    await expectToast(page, "success", "has a daily limit of 30 minutes");
    await expect(chartSvgs).toHaveCount(2);
    await expect(page.getByTestId("delivery")).toHaveAttribute("data-state", "sent");
    await expect(page.getByTestId("delivery")).toHaveClass(/badge-orange/);
    await expectSizedToText(page.getByTestId("delivery"));
    await eventually(page, js, async () =>
      expect(page.getByTestId("delivery")).toHaveAttribute("data-state", "acknowledged", { timeout: 1_000 }),
    );
    await expect(page.getByTestId("delivery")).toHaveClass(/badge-green/);
    // 40 minutes used against a 30-minute limit: the phone stops the app and says why.
    await eventually(page, js, async () =>
      expect(page.getByTestId("disabled-reason")).toHaveText("Disabled: the daily limit is used up", { timeout: 1_000 }),
    );
    await page.getByRole("button", { name: "Disabled", exact: true }).click();
    await expectToast(page, "error", "Please increase daily limit time to enable this category.");
    await expect(page.getByRole("button", { name: "Disabled", exact: true })).toHaveAttribute("aria-pressed", "false");

    // A store app that is not on the phone: its page does not say "On Ivy's phone".
    appUrl.searchParams.set("package_name", "com.roblox.client");
    await page.goto(`${appUrl.pathname}${appUrl.search}`);
    await expect(page.getByRole("heading", { level: 1, name: "Roblox" })).toBeVisible();
    await expect(page.getByText("On Ivy's phone")).toHaveCount(0);

    // A category limit the same way, from the dashboard's most used categories.
    await page.goto("/kids-device");
    await page
      .getByTestId("categories-list")
      .getByRole("link", { name: /Education/ })
      .click();
    await expect(page).toHaveURL(/\/category\?/);
    await expect(chartSvgs).toHaveCount(2);
    await setLimit(page, "Category daily limit", 60);
    await expectToast(page, "success", "Education has a daily limit of 60 minutes");
    await expect(chartSvgs).toHaveCount(2);
    await expect(page.getByTestId("delivery")).toHaveAttribute("data-state", "sent");
    await eventually(page, js, async () =>
      expect(page.getByTestId("delivery")).toHaveAttribute("data-state", "acknowledged", { timeout: 1_000 }),
    );
    await expect(page.getByTestId("category-apps").getByRole("link", { name: /Khan Academy/ })).toBeVisible();

    // A rating submitted shows in the parent ratings.
    await page
      .getByTestId("category-apps")
      .getByRole("link", { name: /Khan Academy/ })
      .click();
    await page.getByRole("link", { name: "Info", exact: true }).click();
    await page.getByRole("link", { name: "Rate this app" }).click();
    const rating = page.getByRole("dialog", { name: /Rate Khan Academy/ });
    await rating.getByRole("group", { name: "Educational" }).getByText("5").click();
    await rating.getByRole("group", { name: "Easy to understand" }).getByText("4").click();
    await rating.getByLabel("I recommend this app").check();
    await rating.getByLabel("Review").fill("Ivy learns fractions with it.");
    await rating.getByRole("button", { name: "Submit rating" }).click();
    await expectToast(page, "success", "Thank you for rating");
    await expect(page.getByTestId("parent-reviews")).toContainText("Ivy learns fractions with it.");
    await expect(page.getByTestId("parent-reviews")).toContainText("for Ivy");
  } finally {
    await phone.close();
  }
});
