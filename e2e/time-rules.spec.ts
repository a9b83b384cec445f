import { expect, test, type Page } from "@playwright/test";
import { hhmm, wallClock } from "../core/zoned-time";
import type { PolicyDocument } from "../device-service/policy/build";
import type { SimulatedPhone } from "../device-service/simulator/phone";
import { uniqueEmail } from "./auth.testing";
import { eventually, expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";

// Time rules (issue 21), in the `js` and `no-js` projects: a new family (time zone UTC) whose phone (the simulator,
// run here) has the kids app and Khan Academy, used today.
const KIDS_APP = "com.kidsportal.kidsapp";
const KHAN = { pkg: "org.khanacademy.android", title: "Khan Academy" };

/** Follows a side-menu link (the menu stays open over the page after a client-side navigation). */
async function viaMenu(page: Page, name: string) {
  await page.getByLabel("Open menu").click();
  const href = await page.getByRole("link", { name, exact: true }).getAttribute("href");
  await page.goto(href!);
}

// With JavaScript, sign-up takes the browser's zone: these journeys work in UTC whatever the machine's zone.
test.use({ timezoneId: "UTC" });

const policyOf = (phone: SimulatedPhone) => phone.state.policy as PolicyDocument | undefined;

test("Bedtime now blocks on the phone and the dashboard says until when; 30 bonus minutes; Saturday's own limit", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, {
    tag: "time",
    apps: [KIDS_APP, KHAN.pkg],
    usedToday: { [KHAN.pkg]: 10 },
  });
  try {
    // A Bedtime window that contains the current time (the family's zone is UTC).
    const now = wallClock(new Date(), "UTC").minuteOfDay;
    const [start, end] = [hhmm(now + 1440 - 30), hhmm(now + 90)];
    await page.goto("/kids-device");
    await viaMenu(page, "Schedules");
    await expect(page.getByRole("heading", { level: 1, name: "Schedules" })).toBeVisible();
    await page.getByRole("link", { name: "Add Schedule" }).click();
    await page.getByRole("dialog", { name: "Add Schedule" }).getByRole("link", { name: "Bedtime", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Add Schedule" });
    await expect(dialog.getByLabel("Name")).toHaveValue("Bedtime");
    await expect(dialog.getByRole("checkbox", { name: "Sunday" })).toBeChecked();
    await dialog.getByLabel("Start", { exact: true }).fill(start);
    await dialog.getByLabel("End", { exact: true }).fill(end);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "success", "Bedtime is saved for Ivy's phone.");
    await expect(page.getByTestId("schedules")).toContainText("Bedtime");
    await expect(page.getByTestId("schedules")).toContainText(`Every day · ${start}–${end}`);

    // The phone acknowledges the policy and blocks Khan Academy by itself.
    await expect.poll(() => policyOf(phone)?.schedules?.map((s) => s.name) ?? []).toEqual(["Bedtime"]);
    await expect.poll(() => phone.state.disabled.has(KHAN.pkg)).toBe(true);
    expect(phone.state.disabled.has(KIDS_APP)).toBe(false);

    await page.goto("/kids-device");
    const khan = page.getByTestId("apps-list").getByRole("listitem").filter({ hasText: KHAN.title });
    await eventually(page, js, () => expect(khan.getByTestId("time-explanation")).toHaveText(`Blocked by Bedtime until ${end}`));

    // 30 bonus minutes for the phone today.
    await page.getByTestId("bonus-control").click();
    const bonus = page.getByRole("dialog", { name: "Bonus time" });
    await expect(bonus.getByRole("spinbutton", { name: "Bonus minutes" })).toHaveValue("30");
    await bonus.getByRole("button", { name: "Give bonus time" }).click();
    await expectToast(page, "success", "30 bonus minutes for Ivy today.");
    await expect(page.getByTestId("bonus-control")).toContainText("30m given today");
    await expect.poll(() => policyOf(phone)?.bonus?.phone ?? 0).toBe(30);

    // Saturday's own global limit.
    await viaMenu(page, "Settings");
    await page.getByRole("link", { name: "Customise by day" }).click();
    const byDay = page.getByRole("form", { name: "Global daily limit by day" });
    await byDay.getByRole("button", { name: "Increase saturday by 15 minutes" }).click();
    await byDay.getByRole("button", { name: "Increase saturday by 15 minutes" }).click();
    await expect(page.getByRole("form", { name: "Global daily limit by day" }).getByRole("spinbutton", { name: "Saturday" })).toHaveValue(
      "30",
    );
    await page.getByRole("form", { name: "Global daily limit by day" }).getByRole("button", { name: "Save limits by day" }).click();
    await expectToast(page, "success", "Limits by day are saved.");
    await expect(page.getByRole("form", { name: "Global daily limit by day" }).getByRole("spinbutton", { name: "Saturday" })).toHaveValue(
      "30",
    );
    await expect(page.getByRole("form", { name: "Global daily limit by day" }).getByRole("spinbutton", { name: "Monday" })).toHaveValue(
      "0",
    );
    await expect.poll(() => policyOf(phone)?.limits.globalByWeekday ?? null).toEqual([null, null, null, null, null, 30, null]);
  } finally {
    await phone.close();
  }
});

test("a session limit set on /application reaches the phone, which puts the app on a break; the portal says until about when", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, {
    tag: "session",
    apps: [KIDS_APP, KHAN.pkg],
    usedToday: { [KHAN.pkg]: 10 },
  });
  try {
    await page.goto("/kids-device");
    const khan = page.getByTestId("apps-list").getByRole("listitem").filter({ hasText: KHAN.title });
    await eventually(page, js, () => expect(khan).toBeVisible());
    const href = await khan.getByRole("link").first().getAttribute("href");
    await page.goto(`${href}&tab=usage`);
    const form = () => page.getByRole("form", { name: `Session limit for ${KHAN.title}` });
    await expect(form().getByTestId("session-state")).toHaveText("Off: no limit on minutes in a row.");
    await expect(form().getByRole("spinbutton", { name: "Minutes in a row" })).toHaveValue("60");
    for (let i = 0; i < 3; i++) await form().getByRole("button", { name: "Decrease minutes in a row by 15 minutes" }).click();
    await expect(form().getByRole("spinbutton", { name: "Minutes in a row" })).toHaveValue("15");

    // A break of 0 is refused on its field, and the minutes chosen are kept.
    await form().getByRole("spinbutton", { name: "Break minutes" }).fill("0");
    await form().getByRole("button", { name: "Save session limit" }).click();
    await expect(form().getByRole("alert")).toHaveText("The break must be 15 minutes or more, in steps of 15 (at most 1440).");
    await expect(form().getByRole("spinbutton", { name: "Minutes in a row" })).toHaveValue("15");

    await form().getByRole("spinbutton", { name: "Break minutes" }).fill("15");
    await form().getByRole("button", { name: "Save session limit" }).click();
    await expectToast(page, "success", "Session limit saved: at most 15m in a row, then a 15m break.");
    await expect(form().getByTestId("session-state")).toHaveText("On: at most 15m in a row, then a 15m break.");

    // The phone gets it, and 20 minutes in a row put Khan Academy on a break.
    await expect
      .poll(() => policyOf(phone)?.apps.find((a) => a.packageName === KHAN.pkg)?.session ?? null)
      .toEqual({ minutes: 15, breakMinutes: 15 });
    await expect.poll(() => (phone.state.enforcedVersion ?? 0) >= (phone.state.policyVersion ?? Infinity)).toBe(true);
    await phone.enforcer.useApp(KHAN.pkg, 20);
    expect(phone.state.disabled.has(KHAN.pkg)).toBe(true);
    await eventually(page, js, async () => {
      await expect(page.getByTestId("disabled-reason")).toHaveText("Disabled: on a break");
      await expect(page.getByTestId("time-explanation")).toHaveText(/^On a break until about \d\d:\d\d$/);
    });
  } finally {
    await phone.close();
  }
});

test.describe("the browser's time zone", () => {
  test.use({ timezoneId: "Europe/London" });

  test("sign-up takes it with JavaScript (UTC without); the profile shows the family's zone and changes it", async ({ page }, info) => {
    const js = info.project.name === "js";
    await page.goto("/registration");
    await page.getByLabel("Parent name").fill("Tom Zone");
    await page.getByLabel("Email").fill(uniqueEmail("zone", info.project.name));
    await page.getByLabel("Password", { exact: true }).fill("tom-zone-passphrase");
    if (js) await expect(page.getByTestId("browser-time-zone")).toHaveValue("Europe/London");
    await page.getByRole("button", { name: "Sign up" }).click();
    await expect(page).toHaveURL(/\/kids-device/);
    await page.goto("/parent-profile");
    const card = page.getByRole("region", { name: "Time zone" });
    await expect(card.getByTestId("time-zone-state")).toContainText(js ? "Saved: Europe/London." : "Saved: UTC.");
    await card.getByLabel("Family time zone").selectOption("America/Los_Angeles");
    await card.getByRole("button", { name: "Save time zone" }).click();
    await expectToast(page, "success", "Your time zone is America/Los_Angeles.");
    await expect(page.getByRole("region", { name: "Time zone" }).getByTestId("time-zone-state")).toContainText(
      "Saved: America/Los Angeles.",
    );
    if (js)
      await expect(
        page.getByRole("region", { name: "Time zone" }).getByRole("button", { name: "Use this browser's time zone" }),
      ).toBeVisible();
  });
});
