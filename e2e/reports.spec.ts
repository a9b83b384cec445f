import { DEMO } from "./auth.testing";
import { openKid, signInDemo } from "./dashboard.testing";
import { expect, test } from "./mail.testing";
import { mailReportAgain } from "./phone-control.testing";

// Runs in the `js` and the `no-js` projects. The demo family's reports were built at start-up by the report job
// over the seeded usage (not inserted by hand); the demo parent's time zone is UTC.

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The Monday that starts the last week closed in UTC. */
function lastClosedMonday(now = new Date()): Date {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const weekday = (today.getUTCDay() + 6) % 7;
  return new Date(today.getTime() - (weekday + 7) * 86_400_000);
}

test("reports: the side menu opens Reports, the month and year filters find the last week's report, the report shows its charts", async ({
  page,
}) => {
  await signInDemo(page);
  await page.locator("summary[aria-label='Open menu']").click();
  await page.getByRole("link", { name: "Reports" }).click();
  await expect(page).toHaveURL(/\/reports\?profileId=\w+&serialNumber=/);
  await page.goto(page.url()); // a fresh load closes the side menu in both projects
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();

  // A month with no report: 'No data found.'
  const thisYear = new Date().getUTCFullYear();
  await page.getByLabel("Month").selectOption("January");
  await page.getByLabel("Year").selectOption(String(thisYear - 4));
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`month=1&year=${thisYear - 4}`));
  await expect(page.getByText("No data found.")).toBeVisible();
  await expect(page.getByLabel("Year").locator("option")).toHaveText([0, 1, 2, 3, 4].map((i) => String(thisYear - i)));
  await expect(page.getByLabel("Month").locator("option")).toHaveText(MONTHS);

  // The month of the last closed week: its report is listed.
  const monday = lastClosedMonday();
  await page.getByLabel("Month").selectOption(MONTHS[monday.getUTCMonth()]);
  await page.getByLabel("Year").selectOption(String(monday.getUTCFullYear()));
  await page.getByRole("button", { name: "Search" }).click();
  const day = monday.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  const row = page.getByRole("row").filter({ hasText: new RegExp(`weekly report: ${day} – `) });
  await expect(row).toHaveCount(1);
  const title = (await row.getByRole("cell").first().textContent())!;
  await row.getByRole("link", { name: /^View/ }).click();

  await expect(page).toHaveURL(/\/report\?id=\w+/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Total screen time" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Top applications" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Top categories" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Monday" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Sunday" })).toBeVisible();
  // The charts are images served by the portal (no JavaScript needed), and they loaded.
  for (const alt of [/^Bar chart of daily screen time/, /^Pie chart of screen time by category/]) {
    const img = page.getByRole("img", { name: alt });
    await expect(img).toBeVisible();
    const src = (await img.getAttribute("src"))!;
    const res = await page.request.get(src);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const box = await img.boundingBox();
    expect(box!.height).toBeGreaterThan(100);
  }
  // Back to the list keeps the kid and the month.
  await page.getByRole("link", { name: "Back to Reports" }).click();
  await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(1);
});

test("reports: a report id the parent may not read (unknown, or another family's: see app/routes/_app.report.test.ts) answers 404", async ({
  page,
}) => {
  await signInDemo(page);
  const res = await page.goto("/report?id=000000000000000000000000");
  expect(res!.status()).toBe(404);
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test("reports: the report job's mail reaches the parent over SMTP with the charts as inline PNG images, and its link opens the report", async ({
  page,
  mailbox,
}) => {
  await signInDemo(page);
  const { profileId } = await openKid(page, "Mia");
  const before = mailbox.mails.length;
  // The report job (queued as the hourly tick queues it) mails Mia's newest report to the local SMTP peer.
  const report = await mailReportAgain(profileId);
  const mail = await mailbox.waitFor(DEMO.email, report.title, { after: before, timeoutMs: 30_000 });
  expect(mail.subject).toBe(report.title);

  // The numbers are in the text part (and the HTML tables); the charts are PNG images referenced by cid, with alt texts.
  expect(mail.text).toContain("Total screen time: ");
  expect(mail.text).toContain("Daily use:\n  Monday: ");
  expect(mail.images.map((i) => i.contentType)).toEqual(["image/png", "image/png"]);
  for (const img of mail.images) {
    expect(img.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(img.bytes.length).toBeGreaterThan(2_000);
    expect(mail.html).toMatch(new RegExp(`<img src="cid:${img.cid.replace(/[.@]/g, "\\$&")}" alt="(Bar|Pie) chart of [^"]+"`));
  }
  expect(mail.text).toMatch(/To stop these reports, open: http:\/\/localhost:\d+\/reports\/unsubscribe\?/);

  // The mail's link opens the same report.
  const link = mail.text.match(/Read the whole report: (\S+)/)![1];
  expect(link).toMatch(new RegExp(`/report\\?id=${report.id}$`));
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: report.title })).toBeVisible();
});
