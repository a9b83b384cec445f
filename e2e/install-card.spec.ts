import { expect, test, type Page } from "@playwright/test";
import { expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";

// The dashboard's install card (issue 13 item 5), in the `js` and `no-js` projects: a store install goes to a new
// family's phone (the simulator, run here), which reports it in progress and then installed. With JavaScript the
// card follows live (server-sent events, no reload); without it a refresh shows each state.
const KIDS_APP = "com.kidsportal.kidsapp";
const SCRATCH = { pkg: "org.scratchjr.android", title: "ScratchJr" };

const card = (page: Page) => page.getByTestId("dashboard-installs");
const scratch = (page: Page) => card(page).getByTestId("dashboard-install").filter({ hasText: SCRATCH.title });

test("the install card shows the phone's progress, then the app installed: live with JavaScript, on refresh without", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "installcard", apps: [KIDS_APP] });
  // The phone answers this install with a progress report (IN_PROGRESS) and waits; the test says when it is done.
  phone.installer.failInstall(SCRATCH.pkg, "IN_PROGRESS", 1);
  try {
    await page.goto("/kids-device");
    await expect(card(page)).toHaveCount(0); // nothing on its way yet
    await page.getByLabel("Open menu").click();
    await page.getByRole("link", { name: "Play Store", exact: true }).click();
    await expect(page).toHaveURL(/\/play-store\?/);
    await page.getByRole("searchbox", { name: "Search apps" }).fill("scratchjr");
    await page.getByRole("searchbox", { name: "Search apps" }).press("Enter");
    await page.getByRole("link", { name: `Install ${SCRATCH.title}`, exact: true }).click();
    await page
      .getByRole("dialog", { name: `Install ${SCRATCH.title}` })
      .getByRole("button", { name: "Skip & Install" })
      .click();
    await expectToast(page, "success", `Installing ${SCRATCH.title}`);
    await expect
      .poll(() => phone.received.some((c) => c.type === "INSTALL_APP" && c.payload.packageName === SCRATCH.pkg), { timeout: 15_000 })
      .toBe(true);

    // The dashboard, with its live connection open before the phone says anything more.
    const live = js ? page.waitForResponse((r) => new URL(r.url()).pathname === "/events") : null;
    await page.goto("/kids-device");
    await live;
    await expect(card(page).getByRole("heading", { name: "Installing on Ivy's phone" })).toBeVisible();
    await expect(scratch(page)).toHaveAttribute("data-state", "installing");
    await expect(scratch(page)).toContainText("Installing…");
    if (js) await page.evaluate(() => ((window as unknown as { stillHere?: boolean }).stillHere = true));

    // The phone reports the install refused (not approved for this phone): not installed, with a link to why.
    await phone.send("install_result", { status: "FAILED", packageName: SCRATCH.pkg, failureReason: "NOT_APPROVED" });
    if (!js) await page.reload();
    await expect(scratch(page)).toHaveAttribute("data-state", "failed", { timeout: 15_000 });
    await expect(scratch(page)).toContainText("Not installed");
    await expect(scratch(page).getByRole("link", { name: "Why?" })).toBeVisible();

    // Approved after all, the phone reports the app installed: it leaves the card, and the card goes (nothing else is on its way).
    phone.state.installed.add(SCRATCH.pkg);
    await phone.send("install_result", { status: "INSTALLED", packageName: SCRATCH.pkg });
    if (!js) await page.reload();
    await expect(card(page)).toHaveCount(0, { timeout: 15_000 });
    if (js) expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true); // no reload: the live update
  } finally {
    await phone.close();
  }
});
