import { expect, test, type Page } from "@playwright/test";
import { hhmm, wallClock } from "../core/zoned-time";
import type { PolicyDocument } from "../device-service/policy/build";
import type { SimulatedPhone } from "../device-service/simulator/phone";
import { eventually, expectToast } from "./helpers/dashboard";
import { familyWithPhone } from "./helpers/family";

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

const policyOf = (phone: SimulatedPhone) => phone.state.policy as PolicyDocument | undefined;

test("Bedtime now blocks on the phone and the dashboard says until when; 30 bonus minutes; Saturday's own limit", async ({ page, baseURL }, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "time", apps: [KIDS_APP, KHAN.pkg], usedToday: { [KHAN.pkg]: 10 } });
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
    await expect(page.getByRole("form", { name: "Global daily limit by day" }).getByRole("spinbutton", { name: "Saturday" })).toHaveValue("30");
    await page.getByRole("form", { name: "Global daily limit by day" }).getByRole("button", { name: "Save limits by day" }).click();
    await expectToast(page, "success", "Limits by day are saved.");
    await expect(page.getByRole("form", { name: "Global daily limit by day" }).getByRole("spinbutton", { name: "Saturday" })).toHaveValue("30");
    await expect(page.getByRole("form", { name: "Global daily limit by day" }).getByRole("spinbutton", { name: "Monday" })).toHaveValue("0");
    await expect.poll(() => policyOf(phone)?.limits.globalByWeekday ?? null).toEqual([null, null, null, null, null, 30, null]);
  } finally {
    await phone.close();
  }
});
