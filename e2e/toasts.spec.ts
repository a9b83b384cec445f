import { expect, test, type Locator } from "@playwright/test";
import { expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";
import { openRequests } from "./requests.testing";

// Confirmations (issue 53 item 1), in the `js` and `no-js` projects on a phone's screen: every toast is in the one
// polite live region, across the phone's width and inside the screen, clear of the control just pressed; with
// JavaScript two confirmations stack and each stays its own 6 s (the page's clock is driven here).
const CANDY = "com.king.candycrushsaga";
const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

/** Inside the screen, across its width (less the gutters), not on the control pressed. */
async function expectPlaced(toast: Locator, pressed: Locator) {
  const t = await box(toast);
  expect(t.x).toBeGreaterThanOrEqual(0);
  expect(t.x + t.width).toBeLessThanOrEqual(PHONE.width);
  expect(t.y).toBeGreaterThanOrEqual(0);
  expect(t.y + t.height).toBeLessThanOrEqual(PHONE.height);
  expect(t.width).toBeGreaterThanOrEqual(PHONE.width - 2 * 16);
  expect(overlaps(t, await box(pressed))).toBe(false);
}

test("confirmations: one polite live region, the phone's width, clear of the switch pressed; two stack, each for its own time", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, {
    tag: "toasts",
    kid: { name: "Ada", birthMonth: "June", birthYear: "2014" },
    apps: [CANDY],
  });
  try {
    const q = new URL(await openRequests(page)).searchParams;
    if (js) await page.clock.install();
    await page.goto(
      `/category?${new URLSearchParams({ id: "GAME_CASUAL", profileId: q.get("profileId")!, serialNumber: q.get("serialNumber")! })}`,
    );
    const region = page.getByTestId("toaster");
    // The region is on the page before any toast (so the first one is read out), and it is the only live one.
    await expect(region).toHaveAttribute("aria-live", "polite");
    await expect(region).toHaveAttribute("role", "status");
    await expect(page.locator("[aria-live]")).toHaveCount(1);
    await expect(region.getByTestId("toast")).toHaveCount(0);
    // From here the page's clock moves only when told (JavaScript on).
    if (js) await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

    await page.getByRole("button", { name: "Enabled", exact: true }).click();
    const first = await expectToast(page, "success", "Casual is disabled on Ada's phone: its apps are blocked.");
    await expect(region.getByTestId("toast")).toHaveCount(1);
    await expect(page.locator("[aria-live]")).toHaveCount(1);
    await expect(page.locator('[data-testid="toast"][role], [data-testid="toast"] [role="alert"]')).toHaveCount(0);
    const pressed = page.getByRole("button", { name: "Disabled", exact: true });
    await expectPlaced(first, pressed);

    if (js) await page.clock.runFor(4_000);
    await pressed.click();
    const second = await expectToast(page, "success", "Casual is enabled on Ada's phone with no daily limit.");
    await expectPlaced(second, page.getByRole("button", { name: "Enabled", exact: true }));
    if (!js) {
      // Without JavaScript the page the redirect loaded shows its own confirmation; it has no timer and stays.
      await expect(region.getByTestId("toast")).toHaveCount(1);
      return;
    }
    // Both, stacked in the one region, neither on the other; the first was not cut short by the second.
    await expect(region.getByTestId("toast")).toHaveCount(2);
    expect(overlaps(await box(first), await box(second))).toBe(false);
    await expectPlaced(first, page.getByRole("button", { name: "Enabled", exact: true }));
    await page.clock.runFor(1_500); // the first at 5.5 s, the second at 1.5 s
    await expect(first).toBeVisible();
    await expect(second).toBeVisible();
    await page.clock.runFor(1_000); // the first at 6.5 s: gone; the second stays
    await expect(region.getByTestId("toast")).toHaveCount(1);
    await expect(second).toBeVisible();
    await page.clock.runFor(2_500); // the second at 5 s
    await expect(second).toBeVisible();
    await page.clock.runFor(1_500);
    await expect(region.getByTestId("toast")).toHaveCount(0);
  } finally {
    await phone.close();
  }
});
