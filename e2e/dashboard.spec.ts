import { expect, test } from "@playwright/test";
import { uniqueEmail } from "./auth.testing";
import { eventually, expectToast, openKid, signInDemo } from "./dashboard.testing";

// Each journey runs twice: in the `js` and the `no-js` project, against the demo family (Mia and Leo).

test("kid header: switcher, battery icon, missing-permissions warning, tabs in the URL", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Leo");
  await expect(page.locator(".status-pill.battery-low")).toContainText("15%");
  await page.getByRole("link", { name: /Kids app: Unhealthy/ }).click();
  const dialog = page.getByRole("dialog", { name: "Missing permissions" });
  await expect(dialog).toContainText("Usage access, Display over other apps");
  await dialog.getByRole("link", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);

  await openKid(page, "Mia");
  await expect(page.locator(".status-pill.battery-half")).toContainText("76%");
  await expect(page.getByText("Kids app: Healthy")).toBeVisible();
  await page.getByRole("link", { name: "Info", exact: true }).click();
  await expect(page).toHaveURL(/tab=info/);
  await expect(page.getByRole("heading", { name: "About Mia's phone" })).toBeVisible();
  await expect(page.getByText("DEMO-MIA-0001")).toBeVisible();
  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await expect(page).not.toHaveURL(/tab=info/);
  await expect(page.getByRole("heading", { name: "Most used apps" })).toBeVisible();
  await expect(page.getByTestId("last-update")).toContainText("Last Update:");
});

test("Day steps 24 hours and Week toggles This Week / Previous Week, all in the URL", async ({ page }, info) => {
  await signInDemo(page);
  await openKid(page, "Mia");
  const label = page.getByTestId("period-label");
  await expect(label).toHaveText("Today");
  // The chart's two SVGs (phone and wide) are in the page, and still there once the page is hydrated: a document's
  // data does not carry them a second time (app/utils/document-markup.ts), the browser keeps what the HTML shows.
  const chartSvgs = page.locator("figure.chart .chart-svg svg");
  if (info.project.name === "js")
    await page.waitForFunction(
      () => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true,
    );
  await expect(chartSvgs).toHaveCount(2);
  await expect(chartSvgs.first()).toHaveAttribute("aria-label", "Mia's screen time by category, today, by hour");
  const today = new Date();
  const yesterday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - 86_400_000)
    .toISOString()
    .slice(0, 10);
  await page.getByRole("link", { name: "Previous day" }).click();
  await expect(page).toHaveURL(new RegExp(`date=${yesterday}`));
  await expect(label).not.toHaveText("Today");
  await expect(page.getByRole("img", { name: /screen time by category/ }).first()).toBeVisible();
  // Another day's chart (with JavaScript, from the data request), then today's again.
  await expect(chartSvgs).toHaveCount(2);
  await expect(chartSvgs.first()).not.toHaveAttribute("aria-label", /today/);
  await page.getByRole("link", { name: "Next day" }).click();
  await expect(label).toHaveText("Today");
  await expect(chartSvgs).toHaveCount(2);
  await expect(chartSvgs.first()).toHaveAttribute("aria-label", "Mia's screen time by category, today, by hour");
  await expect(page.getByRole("link", { name: "Next day" })).toHaveCount(0);

  await page.getByRole("link", { name: "Week", exact: true }).click();
  await expect(page).toHaveURL(/filter=week/);
  await expect(label).toHaveText(/^This Week, [A-Z][a-z]{2} \d{1,2}(, \d{4})? – [A-Z][a-z]{2} \d{1,2}/);
  await page.getByRole("link", { name: "Previous Week" }).click();
  await expect(page).toHaveURL(/week=previous/);
  await expect(label).toHaveText(/^Previous Week, [A-Z][a-z]{2} \d{1,2}(, \d{4})? – [A-Z][a-z]{2} \d{1,2}/);
  const previousTotal = await page.getByTestId("total-time").textContent();
  expect(previousTotal).toMatch(/\d+h/);
  await page.getByRole("link", { name: "This Week" }).click();
  await expect(label).toHaveText(/^This Week, [A-Z][a-z]{2} \d{1,2}(, \d{4})? – [A-Z][a-z]{2} \d{1,2}/);
  await expect(page).not.toHaveURL(/week=previous/);
});

test("most used lists show 3, Show More adds 3, Show Less goes back to 3", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Mia", "&filter=week&week=previous");
  const apps = page.getByTestId("apps-list").getByRole("listitem");
  await expect(apps).toHaveCount(3);
  await page.getByRole("link", { name: "Show More apps" }).click();
  // The page comes back at the apps section, not at the top.
  await expect(page).toHaveURL(/apps=6#apps$/);
  await expect(apps).toHaveCount(6);
  await page.getByRole("link", { name: "Show More apps" }).click();
  await expect(apps).toHaveCount(9);
  await page.getByRole("link", { name: "Show Less apps" }).click();
  await expect(apps).toHaveCount(3);
  await expect(page.getByRole("link", { name: "Show Less apps" })).toHaveCount(0);
  // The visible words are the spec's.
  await expect(page.getByRole("link", { name: "Show More apps" })).toHaveText("Show More");

  const cats = page.getByTestId("categories-list").getByRole("listitem");
  await expect(cats).toHaveCount(3);
  await page.getByRole("link", { name: "Show More categories" }).click();
  await expect(cats).toHaveCount(6);
  await expect(page.getByRole("link", { name: "Show Less categories" })).toHaveText("Show Less");
});

test("a manually installed app ('Others') carries the 'Manually Install' badge", async ({ page }) => {
  await signInDemo(page);
  const leo = await openKid(page, "Leo");
  // The homework app is used on some days only: walk back day by day (Day steps 24 hours) until it shows.
  let found = false;
  for (let d = 0; d < 30 && !found; d++) {
    const day = new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/kids-device?profileId=${leo.profileId}&date=${day}&apps=90`);
    found = (await page.getByText("Manually Install").count()) > 0;
  }
  expect(found).toBe(true);
  const item = page.getByTestId("apps-list").getByRole("listitem").filter({ hasText: "Manually Install" }).first();
  await expect(item.getByRole("link")).toHaveAttribute("href", /package_name=org\.school\.homework/);
});

test("edit kid: a birth year before 2000 is refused, nothing is lost", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Mia");
  await page.getByRole("link", { name: "Edit kid" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit kid" });
  await expect(dialog.getByLabel("Birth month")).toHaveValue("3");
  await dialog.getByLabel("Name").fill("Mia Rose");
  await dialog.getByLabel("Birth year").fill("1999");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText(`Birth year must be between 2000 and ${new Date().getUTCFullYear()}.`)).toBeVisible();
  await expect(dialog.getByLabel("Name")).toHaveValue("Mia Rose");
  // The first option is empty (a required select's placeholder), then the twelve months.
  await expect(dialog.getByLabel("Birth month").locator("option")).toHaveText([
    "Choose…",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ]);
  await dialog.getByLabel("Birth year").fill(String(new Date().getUTCFullYear() + 1));
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText(/Birth year must be between 2000/)).toBeVisible();
  // A valid edit goes through the device service and closes the popup.
  await dialog.getByLabel("Name").fill("Mia");
  await dialog.getByLabel("Birth year").fill("2014");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Mia" })).toBeVisible();
  await expect(page.getByText(/^12 years|^\d+ years/)).toBeVisible();
});

test("app protection popup: unlock, Save, then lock again; the icon follows the phone", async ({ page }, info) => {
  const js = info.project.name === "js";
  await signInDemo(page);
  await openKid(page, "Leo");
  const control = page.getByTestId("protection-control");
  for (const choice of ["Unlocked", "Locked"] as const) {
    await control.click();
    const dialog = page.getByRole("dialog", { name: "App protection" });
    await dialog.getByLabel(choice, { exact: true }).check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(control).toContainText(`${choice} ·`);
    await eventually(page, js, async () => {
      await expect(control).toContainText("confirmed", { timeout: 1_000 });
    });
  }
});

test("global daily limit: 20 is refused with the spec's message and reset to 0; steppers work", async ({ page }) => {
  await signInDemo(page);
  const { profileId, serialNumber } = await openKid(page, "Mia");
  await page.goto(`/global-settings?profileId=${profileId}&serialNumber=${serialNumber}`);
  const minutes = page.getByLabel("Minutes a day", { exact: true });
  await minutes.fill("20");
  await minutes.press("Enter");
  await expect(page.getByText("Please enter time multiple of 15.")).toBeVisible();
  await expect(minutes).toHaveValue("0");

  await page.getByRole("button", { name: "Increase minutes a day by 15 minutes" }).click();
  await expect(minutes).toHaveValue("15");
  await page.getByRole("button", { name: "Increase minutes a day by 15 minutes" }).click();
  await expect(minutes).toHaveValue("30");
  await page.getByRole("button", { name: "Decrease minutes a day by 15 minutes" }).click();
  await page.getByRole("button", { name: "Decrease minutes a day by 15 minutes" }).click();
  await page.getByRole("button", { name: "Decrease minutes a day by 15 minutes" }).click();
  await expect(minutes).toHaveValue("0");
  await expect(page.getByRole("button", { name: "Daily limit", exact: true })).toHaveAttribute("aria-pressed", "false");
  await page.getByRole("button", { name: "Daily limit", exact: true }).click();
  await expect(minutes).toHaveValue("15");
  await expect(page.getByRole("button", { name: "Daily limit", exact: true })).toHaveAttribute("aria-pressed", "true");
});

test("global settings: save a limit, report frequency, ring Play Sound / Stop Sound", async ({ page }) => {
  await signInDemo(page);
  const { profileId, serialNumber } = await openKid(page, "Mia");
  await page.goto(`/global-settings?profileId=${profileId}&serialNumber=${serialNumber}`);
  const limit = page.locator("section", { has: page.getByRole("heading", { name: "Global daily limit" }) });
  await page.getByLabel("Minutes a day", { exact: true }).fill("45");
  await limit.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "success");
  await expect(limit.getByText("Saved: 45m.")).toBeVisible();

  const report = page.locator("section", { has: page.getByRole("heading", { name: "Kids report frequency" }) });
  await report.getByLabel("Monthly").check();
  await report.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "success", "Report frequency saved.");
  await expect(report.getByLabel("Monthly")).toBeChecked();
  await report.getByLabel("Weekly").check();
  await report.getByRole("button", { name: "Save" }).click();
  await expect(report.getByLabel("Weekly")).toBeChecked();

  // The button follows the phone (the command and its acknowledgement), not the URL: leaving and coming back keeps Stop Sound.
  await page.getByRole("button", { name: "Play Sound" }).click();
  await expectToast(page, "success", "Ringing Mia's phone.");
  await expect(page.getByRole("button", { name: "Stop Sound" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  await page.goBack();
  await expect(page.getByRole("button", { name: "Stop Sound" })).toBeVisible();
  await page.getByRole("button", { name: "Stop Sound" }).click();
  await expect(page.getByRole("button", { name: "Play Sound" })).toBeVisible();
  await expect(page.getByText(/bypass the protections/)).toBeVisible();
});

test("device info: every detail field, Lock Device, Reboot Device and Sync", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Mia");
  await page.getByRole("link", { name: "Device info" }).click();
  await expect(page.getByRole("heading", { name: "Device Info" })).toBeVisible();
  for (const field of [
    "Battery level",
    "Battery checked at",
    "Serial number",
    "Model",
    "Brand",
    "Hardware",
    "Baseband version",
    "Manufacturer",
    "Android version",
    "Language",
    "IMEI",
    "WiFi MAC",
    "Network operator",
    "Phone number",
    "RAM",
    "Storage",
  ]) {
    await expect(page.locator("dt", { hasText: new RegExp(`^${field}$`) })).toBeVisible();
  }
  await expect(page.getByText("Galaxy A15")).toBeVisible();
  // Lock asks first; Cancel sends nothing, the confirmation sends it.
  await page.getByRole("link", { name: "Lock Device" }).click();
  const ask = page.getByRole("dialog", { name: "Lock Device" });
  await expect(ask).toContainText("Lock Mia's phone now?");
  await ask.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("link", { name: "Lock Device" }).click();
  await page.getByRole("dialog", { name: "Lock Device" }).getByRole("button", { name: "Yes, lock device" }).click();
  await expectToast(page, "success", "Mia's phone");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("link", { name: "Reboot Device" }).click();
  await expect(page.getByRole("dialog", { name: "Reboot Device" })).toContainText("Restart Mia's phone now?");
  await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Sync" }).click();
  await expectToast(page, "success");
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/kids-device\?profileId=/);
});

test("location settings: tracking off sets the interval to 0; Fetch Location Now", async ({ page }) => {
  await signInDemo(page);
  const { profileId, serialNumber } = await openKid(page, "Leo");
  await page.goto(`/location-settings?profileId=${profileId}&serialNumber=${serialNumber}`);
  const interval = page.getByLabel("Tracking interval in minutes", { exact: true });
  const tracking = page.getByRole("button", { name: "Enable location tracking", exact: true });
  if ((await tracking.getAttribute("aria-pressed")) === "false") await tracking.click();
  await expect(tracking).toHaveAttribute("aria-pressed", "true");
  await expect(interval).not.toHaveValue("0");
  await tracking.click();
  await expect(tracking).toHaveAttribute("aria-pressed", "false");
  await expect(interval).toHaveValue("0");
  await tracking.click();
  await expect(interval).toHaveValue("15");
  await page.getByRole("button", { name: "Increase tracking interval in minutes by 15 minutes" }).click();
  await expect(interval).toHaveValue("30");
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "success");
  await expect(page.getByText("Saved: every 30 minutes.")).toBeVisible();
  await page.getByRole("button", { name: "Fetch Location Now" }).click();
  await expectToast(page, "success");
});

test("popups: recommendation by age, notifications paged and marked read, app rating closes for good", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Leo");
  await page.getByRole("link", { name: /Screen time tips/ }).click();
  const rec = page.getByRole("dialog", { name: "Screen time recommendation" });
  await expect(rec).toContainText("4 to 8 years");
  await expect(rec).toContainText("30 to 60 minutes a day at most.");
  await rec.getByRole("link", { name: "Close" }).click();

  await openKid(page, "Mia");
  await page.getByRole("link", { name: /Screen time tips/ }).click();
  await expect(rec).toContainText("10 years and over");
  await expect(rec.getByRole("link", { name: "Open the media-voucher template" })).toHaveAttribute(
    "href",
    /\/resources\/media-vouchers\?hours=\d+/,
  );
  await rec.getByRole("link", { name: "Close" }).click();

  // Notifications: the bell shows unread, opening lists 20, the loader adds the rest, unread goes to 0.
  const bell = page.getByRole("link", { name: /^Notifications, \d+ unread$/ });
  await bell.click();
  const list = page.getByRole("dialog", { name: "Notifications" }).getByRole("listitem");
  await expect(list).toHaveCount(20);
  await page.getByRole("link", { name: "Load more" }).click();
  await expect(list).toHaveCount(26);
  await page.getByRole("dialog", { name: "Notifications" }).getByRole("link", { name: "Close" }).click();
  await expect(page.getByRole("link", { name: "Notifications, 0 unread" })).toBeVisible();

  // App rating: open by itself while apps are pending (first visit of this run), closing marks them shown.
  const rating = page.getByTestId("rating-popup");
  if (await rating.count()) {
    await expect(rating.getByRole("link").first()).toHaveAttribute("href", /showRating=true/);
    await rating.getByRole("button", { name: "Close app rating" }).click();
    await expect(rating).toHaveCount(0);
  }
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Mia" })).toBeVisible();
  await expect(rating).toHaveCount(0);
});

test("map toggle and the map page with its OpenStreetMap link", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Mia");
  const toggle = page.getByRole("button", { name: "Show map", exact: true });
  const before = await toggle.getAttribute("aria-pressed");
  await toggle.click();
  await expectToast(page, "success");
  await expect(toggle).toHaveAttribute("aria-pressed", before === "true" ? "false" : "true");
  await expect(page.locator("iframe.map-frame")).toHaveCount(before === "true" ? 0 : 1);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", before ?? "true");

  const open = page.getByRole("link", { name: "Open map" });
  await expect(open).toHaveAttribute("href", /\/map\?lat=51\.5014&long=-0\.1419&zoom=12&bbox=-0\.1429%2C51\.5004%2C-0\.1409%2C51\.5024/);
  await open.click();
  await expect(page.getByTestId("map-text")).toContainText("51.50140, -0.14190");
  await expect(page.getByRole("link", { name: "View on OpenStreetMap" })).toHaveAttribute(
    "href",
    "https://www.openstreetmap.org/?mlat=51.5014&mlon=-0.1419#map=13/51.5014/-0.1419",
  );
});

test("another family's profileId or serialNumber is refused on every page", async ({ page, browser }, info) => {
  await signInDemo(page);
  const mia = await openKid(page, "Mia");
  const leo = await openKid(page, "Leo");
  // Same family, but the serial number of another kid: refused too.
  expect((await page.goto(`/global-settings?profileId=${mia.profileId}&serialNumber=${leo.serialNumber}`))?.status()).toBe(404);

  const email = uniqueEmail("other-family", info.project.name);
  const other = await browser.newContext({ javaScriptEnabled: info.project.name === "js" });
  const p = await other.newPage();
  await p.goto("/registration");
  await p.getByLabel("Parent name").fill("Other Parent");
  await p.getByLabel("Email").fill(email);
  await p.getByLabel("Password", { exact: true }).fill("other-passphrase");
  await p.getByRole("button", { name: "Sign up" }).click();
  await expect(p).toHaveURL(/\/kids-device/); // sign-up signs the new parent in
  await expect(p.getByText("No devices have been added yet.")).toBeVisible();
  const q = `profileId=${mia.profileId}&serialNumber=${mia.serialNumber}`;
  for (const url of [
    `/kids-device?profileId=${mia.profileId}`,
    `/global-settings?${q}`,
    `/schedules?${q}`,
    `/location-settings?${q}`,
    `/device-info?profile_id=${mia.profileId}&serialNumber=${mia.serialNumber}`,
    `/resources/kid-picture?profileId=${mia.profileId}`,
    `/resources/notifications?profileId=${mia.profileId}`,
  ]) {
    const res = await p.goto(url);
    expect(res?.status(), url).toBe(404);
  }
  // A forged form post is refused as well, and nothing reaches the phone.
  const post = await p.request.post(`/device-info?profile_id=${mia.profileId}&serialNumber=${mia.serialNumber}`, {
    form: { intent: "lock" },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(404);
  const post2 = await p.request.post(`/kids-device?profileId=${mia.profileId}`, {
    form: { intent: "sleep", profileId: mia.profileId, sleepMode: "on" },
    maxRedirects: 0,
  });
  expect(post2.status()).toBe(404);
  await other.close();
});

test("sleep mode: on → waiting for the phone → confirmed (green), then off again", async ({ page }, info) => {
  const js = info.project.name === "js";
  await signInDemo(page);
  await openKid(page, "Mia");
  const control = page.getByTestId("sleep-control");
  for (const turn of ["on", "off"] as const) {
    await control.click();
    const dialog = page.getByRole("dialog", { name: "Sleep mode" });
    await dialog.getByRole("button", { name: `Turn sleep mode ${turn}`, exact: true }).click();
    // The popup closes; the control shows the new state at once, warning-coloured until the phone confirms
    // (the e2e server's simulated phones take 3 s to carry out a command).
    await expect(dialog).toHaveCount(0);
    await expect(control).toContainText(turn === "on" ? "On ·" : "Off ·");
    await expect(control).toHaveClass(/ack-warning/);
    await expect(page.getByTestId("waiting")).toContainText("Waiting for Mia's phone to confirm");
    // The page comes back at the controls, and updates by itself: the live channel with JavaScript, a meta
    // refresh without it (nobody reloads here); once confirmed, a page without JavaScript stops refreshing.
    await expect(page).toHaveURL(/#controls$/);
    await expect(control).toHaveClass(turn === "on" ? /ack-green/ : /ack-off/, { timeout: 20_000 });
    await expect(page.getByTestId("waiting")).toHaveCount(0);
    if (!js) {
      await expect(page.locator('head meta[http-equiv="refresh"]')).toHaveCount(0);
      // The refreshes (one at least: the confirmation reached a page without JavaScript) came back at the controls.
      await expect(page).toHaveURL(/#controls$/);
      await expect(page.locator("#controls")).toBeInViewport();
    }
  }
});
