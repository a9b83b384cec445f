import { expect, test, type Locator, type Page } from "@playwright/test";
import { openKid, signInDemo } from "./dashboard.testing";

// Small things on a phone-sized screen (issue 11 item 5): a long email wraps instead of widening the page, and the
// sessions table reads as one card per session; the dashboard's first screen shows the kid's status, the controls
// and today's screen time (issue 53 item 5). Both projects.
test.use({ viewport: { width: 390, height: 844 } });

async function noSideways(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${path} scrolls sideways`).toBeLessThanOrEqual(client);
}

test("a long email wraps and the sessions table reads on a phone", async ({ page }, info) => {
  const email = `a-very-long-email-address-for-a-parent-${info.project.name}-${Date.now()}@an-unusually-long-family-domain.example.com`;
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill("Robin Longname");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("robin-long-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  for (const path of ["/kids-device", "/parent-profile", "/account", "/contact"]) await noSideways(page, path);
  // On /account each session is a card whose values carry their column's name.
  await page.goto("/account");
  const cell = page.locator(".sessions-table td[data-label='Signed in']").first();
  await expect(cell).toBeVisible();
  expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe("block");
  expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Signed in: "');
});

test("the dashboard's first screen on a phone shows the kid's status, the controls and today's screen time", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Mia");
  await page.evaluate(() => window.scrollTo(0, 0));
  const bottom = async (what: Locator) => {
    const box = await what.boundingBox();
    expect(box, "shown").not.toBeNull();
    return box!.y + box!.height;
  };
  const screen = page.viewportSize()!.height;
  const todayTime = page.getByTestId("total-time");
  await expect(page.getByTestId("period-label")).toHaveText("Today");
  const shown = {
    "phone status": page.getByRole("group", { name: "Phone status" }),
    "sleep mode": page.getByTestId("sleep-control"),
    "app protection": page.getByTestId("protection-control"),
    "screen time today": todayTime,
  };
  for (const [name, what] of Object.entries(shown))
    expect(await bottom(what), `${name} within the first screen`).toBeLessThanOrEqual(screen);
  // The new apps to rate (while any are pending) come after today's screen time.
  const rating = page.getByTestId("rating-popup");
  if (await rating.count()) expect((await rating.boundingBox())!.y).toBeGreaterThan(await bottom(todayTime));
});
