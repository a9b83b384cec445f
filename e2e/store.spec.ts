import { expect, test, type Page } from "@playwright/test";
import type { SimulatedPhone } from "../device-service/simulator/phone";
import { eventually, expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";

// The Play Store (issue 13), in the `js` and `no-js` projects: a new family whose phone (the simulator, run here)
// has the kids app and a system app; it installs, fails and recovers as told.
const KIDS_APP = "com.kidsportal.kidsapp";
const CHROME = "com.android.chrome";
const KHAN = "Khan Academy";
const DUOLINGO = "Duolingo: Language Lessons";
const CLASSROOM = { pkg: "com.google.android.apps.classroom", title: "Google Classroom" };
const SCRATCH = { pkg: "org.scratchjr.android", title: "ScratchJr" };

/** The family's phone has the kids app and a system app; returns it and the store's URL (from the side menu). */
async function storeFamily(page: Page, baseURL: string, project: string): Promise<{ phone: SimulatedPhone; storeUrl: string }> {
  // The phone takes a moment to act on a command, so "installing" is seen before "installed".
  const { phone, serialNumber } = await familyWithPhone(page, baseURL, project, {
    tag: "store",
    apps: [KIDS_APP, { packageName: CHROME, systemApp: true }],
    ackDelayMs: 1_500,
  });
  await page.goto("/kids-device");
  await page.getByLabel("Open menu").click();
  await page.getByRole("link", { name: "Play Store", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/play-store\\?profileId=[^&]+&serialNumber=${serialNumber}`));
  return { phone, storeUrl: new URL(page.url()).pathname + new URL(page.url()).search };
}

const item = (page: Page, title: string) =>
  page.getByTestId("store-item").filter({ has: page.getByRole("link", { name: title, exact: true }) });

/** Opens the install popup of an app in the search results and installs it (30-minute limit, or Skip & Install). */
async function install(page: Page, title: string, limit: number | "skip") {
  await page.getByRole("link", { name: `Install ${title}`, exact: true }).click();
  const popup = page.getByRole("dialog", { name: `Install ${title}` });
  await expect(popup.getByRole("button", { name: "Daily limit", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(popup.getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue("60");
  if (limit === "skip") {
    await popup.getByRole("button", { name: "Skip & Install" }).click();
  } else {
    for (let m = 60; m > limit; m -= 15) {
      await page
        .getByRole("dialog", { name: `Install ${title}` })
        .getByRole("button", { name: "Decrease minutes a day by 15 minutes" })
        .click();
      await expect(page.getByRole("dialog", { name: `Install ${title}` }).getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue(
        String(m - 15),
      );
    }
    await page
      .getByRole("dialog", { name: `Install ${title}` })
      .getByRole("button", { name: "Save and Install" })
      .click();
  }
  await expectToast(page, "success", `Installing ${title}`);
}

async function search(page: Page, text: string) {
  await page.getByRole("searchbox", { name: "Search apps" }).fill(text);
  await page.getByRole("searchbox", { name: "Search apps" }).press("Enter");
  await expect(page.getByTestId("result-label")).toContainText(`Show result for '${text}'`);
}

test("search by text and category; install with a limit and with Skip & Install; uninstall; the kids app and a system app refused", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone, storeUrl } = await storeFamily(page, baseURL!, info.project.name);
  try {
    await page.goto(storeUrl);
    await expect(page.getByRole("heading", { level: 1, name: "Play Store" })).toBeVisible();
    await expect(page.getByTestId("store-header")).toHaveText("Ivy · Google Pixel 8a");
    await expect(page.getByRole("link", { name: "Installed", exact: true })).toHaveAttribute("aria-current", "page");

    // The whole catalogue under Search Result, twenty at a time: Show More and Show Less keep the count in the URL.
    await page.getByRole("link", { name: "Search Result", exact: true }).click();
    await expect(page.getByTestId("store-item")).toHaveCount(20);
    await page.getByRole("link", { name: "Show More results" }).click();
    await expect(page).toHaveURL(/shown=40/);
    await expect(page.getByTestId("store-item")).toHaveCount(40);
    await expect(page.getByTestId("store-item").nth(20)).toHaveAttribute("id", "more-results");
    await page.getByRole("link", { name: "Show Less results" }).click();
    await expect(page.getByTestId("store-item")).toHaveCount(20);
    await expect(page).not.toHaveURL(/shown=/);

    // Search by text (Enter), then by category: the category clears the text.
    await search(page, "khan");
    await expect(page).toHaveURL(/tab=search/);
    await expect(page.getByTestId("store-item").first()).toContainText(KHAN);
    await page.getByRole("link", { name: "Category", exact: true }).click();
    await page.getByRole("dialog", { name: "Category" }).getByRole("link", { name: "Education", exact: true }).click();
    await expect(page.getByTestId("result-label")).toContainText("Show result for Education");
    await expect(page).not.toHaveURL(/playstoreText=/);
    await expect(page.getByRole("searchbox", { name: "Search apps" })).toHaveValue("");
    await expect(item(page, KHAN)).toBeVisible();

    // Install with a 30-minute limit: installing, then installed, under Installed with its limit.
    await install(page, KHAN, 30);
    await expect(page).toHaveURL(/tab=installed/);
    await expect(item(page, KHAN)).toHaveAttribute("data-state", "installing");
    await eventually(page, js, async () => expect(item(page, KHAN)).toHaveAttribute("data-state", "installed", { timeout: 1_000 }));
    await expect(item(page, KHAN).getByTestId("app-limit")).toHaveText("Daily limit 30 minutes");
    expect(phone.state.installed.has("org.khanacademy.android")).toBe(true);

    // Skip & Install: no limit. Then uninstall it.
    await search(page, "duolingo");
    await install(page, DUOLINGO, "skip");
    await eventually(page, js, async () => expect(item(page, DUOLINGO)).toHaveAttribute("data-state", "installed", { timeout: 1_000 }));
    await expect(item(page, DUOLINGO).getByTestId("app-limit")).toHaveCount(0);
    await page.getByRole("button", { name: `Uninstall ${DUOLINGO}` }).click();
    await expectToast(page, "success", `Uninstalling ${DUOLINGO}`);
    await expect(item(page, DUOLINGO)).toHaveCount(0);

    // The kids app and a system app stay, with the spec's messages.
    await page.getByRole("button", { name: "Uninstall Kids Portal app" }).click();
    await expectToast(page, "error", "You don't have permission to uninstall this app");
    await expect(item(page, "Google Chrome: Fast & Secure")).toContainText("This is a system app and cannot be uninstalled.");
  } finally {
    await phone.close();
  }
});

test("a NETWORK_ERROR install is explained and completes after the phone reconnects; an UNKNOWN failure is retried by the job", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone, storeUrl } = await storeFamily(page, baseURL!, info.project.name);
  try {
    phone.installer.failInstall(CLASSROOM.pkg, "NETWORK_ERROR_UNRELIABLE_CONNECTION", 1);
    phone.installer.failInstall(SCRATCH.pkg, "INSTALLATION_FAILURE_REASON_UNKNOWN", 1);
    await page.goto(storeUrl);

    await search(page, "classroom");
    await install(page, CLASSROOM.title, "skip");
    await eventually(page, js, async () => expect(item(page, CLASSROOM.title)).toHaveAttribute("data-state", "failed", { timeout: 1_000 }));
    await item(page, CLASSROOM.title).getByRole("link", { name: "Why?" }).click();
    const why = page.getByRole("dialog", { name: "The phone lost its connection" });
    await expect(why.getByTestId("failure-explanation")).toContainText(
      "The install resumes automatically as soon as the phone is back online.",
    );
    await why.getByRole("link", { name: "OK" }).click();
    // The phone drops off and comes back: the install resumes and lands.
    await phone.close();
    await phone.connect();
    await eventually(page, js, async () =>
      expect(item(page, CLASSROOM.title)).toHaveAttribute("data-state", "installed", { timeout: 1_000 }),
    );

    await search(page, "scratchjr");
    await install(page, SCRATCH.title, "skip");
    await eventually(page, js, async () =>
      expect(item(page, SCRATCH.title).getByTestId("retry-line")).toContainText("Attempt 1 of 5", { timeout: 1_000 }),
    );
    await eventually(
      page,
      js,
      async () => expect(item(page, SCRATCH.title)).toHaveAttribute("data-state", "installed", { timeout: 1_000 }),
      30_000,
    );
    expect(phone.received.filter((c) => c.type === "INSTALL_APP" && c.payload.packageName === SCRATCH.pkg)).toHaveLength(2);
  } finally {
    await phone.close();
  }
});
