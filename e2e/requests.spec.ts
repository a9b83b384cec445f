import { expect, test } from "@playwright/test";
import { decide } from "../device-service/policy/enforce";
import type { PolicyDocument } from "../device-service/policy/build";
import { eventually, expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";
import { openRequests, waitForRequest } from "./requests.testing";

// Requests (issue 14), in the `js` and `no-js` projects: a new family's phone (the simulator, run here) asks; the
// parent answers on /requests; the phone gets the answer.
const DUOLINGO = "com.duolingo";
const CANDY = "com.king.candycrushsaga";
const SCRATCH = "org.scratchjr.android";
const TOCA = "com.tocaboca.tocakitchen2";
const ADA = { name: "Ada", birthMonth: "June", birthYear: "2014" };
const phoneApp = (policy: unknown, pkg: string) => (policy as PolicyDocument | undefined)?.apps?.find((a) => a.packageName === pkg);

test("extend: 30 more minutes today; the phone's limit rises, the standing limit does not; a disabled category shows its warning and link", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "req-extend", kid: ADA, apps: [DUOLINGO, CANDY] });
  try {
    // The parent gives Duolingo a 30-minute daily limit.
    const requests = await openRequests(page);
    await expect(page.getByText("No data found.")).toBeVisible();
    const q = new URL(requests).searchParams;
    await page.goto(
      `/application?${new URLSearchParams({ package_name: DUOLINGO, profile_id: q.get("profileId")!, serialNumber: q.get("serialNumber")!, tab: "usage" })}`,
    );
    const limit = page.getByRole("form", { name: "Daily limit" });
    await limit.getByRole("button", { name: "Daily limit", exact: true }).click();
    for (let m = 15; m < 30; m += 15) await limit.getByRole("button", { name: "Increase minutes a day by 15 minutes" }).click();
    await expect(limit.getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue("30");
    await limit.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "success", "has a daily limit of 30 minutes");
    await expect.poll(() => phoneApp(phone.state.policy, DUOLINGO)?.dailyLimitMinutes).toBe(30);

    // The kid asks for 30 more minutes; the side menu counts it; the parent extends.
    const asked = await phone.requests.ask("extend", DUOLINGO, { minutes: 30, remarks: "Finishing my lesson" });
    await page.goto(requests);
    const row = await waitForRequest(page, js, "Duolingo");
    await expect(row).toContainText("App Time Extend Request - 30 Minutes");
    await expect(row).toContainText("Finishing my lesson");
    await expect(page.getByTestId("request-count")).toHaveText("1");
    await row.getByRole("link", { name: /^Extend Duolingo/ }).click();
    const popup = page.getByRole("dialog", { name: /^Extend Duolingo/ });
    await expect(popup.getByTestId("extend-current")).toHaveText("30m");
    await expect(popup.getByTestId("extend-extra")).toHaveText("30m");
    await expect(popup.getByTestId("extend-total")).toHaveText("1h");
    await popup.getByRole("button", { name: "Approve" }).click();
    await expectToast(page, "success", /30 more minutes on Duolingo.* today/);
    await expect(page.getByText("No data found.")).toBeVisible();

    // The phone hears it and its limit for today is 60; the standing limit stays 30 (here and on the phone).
    expect(await phone.requests.waitForAnswer(asked, 10_000)).toMatchObject({
      status: "Approved",
      dailyLimitMinutes: 30,
      limitTodayMinutes: 60,
    });
    expect(phone.requests.notifications.at(-1)?.title).toBe("Request approved");
    // Bonus time for the app (device-service/bonus.ts): the policy carries it for the kid's day only.
    await expect.poll(() => (phone.state.policy as PolicyDocument | undefined)?.bonus?.apps[DUOLINGO]).toBe(30);
    const mine = decide({ policy: phone.state.policy as PolicyDocument, usageToday: {}, now: new Date() }).find(
      (d) => d.packageName === DUOLINGO,
    );
    expect(mine?.minutesLeft).toBe(60);
    expect(phoneApp(phone.state.policy, DUOLINGO)?.dailyLimitMinutes).toBe(30);
    await page.goto(
      `/application?${new URLSearchParams({ package_name: DUOLINGO, profile_id: q.get("profileId")!, serialNumber: q.get("serialNumber")!, tab: "usage" })}`,
    );
    await expect(page.getByRole("form", { name: "Daily limit" }).getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue("30");
    await eventually(page, js, async () =>
      expect(page.getByTestId("delivery")).toHaveAttribute("data-state", "acknowledged", { timeout: 1_000 }),
    );

    // Candy Crush's category is disabled: the toast says what that does; a limit set meanwhile says the category
    // stays disabled and when the limit counts.
    await page.goto(
      `/category?${new URLSearchParams({ id: "GAME_CASUAL", profileId: q.get("profileId")!, serialNumber: q.get("serialNumber")! })}`,
    );
    await page.getByRole("button", { name: "Enabled", exact: true }).click();
    await expectToast(page, "success", "Casual is disabled on Ada's phone: its apps are blocked.");
    await expect(page.getByRole("button", { name: "Disabled", exact: true })).toBeVisible();
    const categoryLimit = page.getByRole("form", { name: "Category daily limit" });
    await categoryLimit.getByRole("button", { name: "Daily limit", exact: true }).click();
    await expect(categoryLimit.getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue("15");
    await categoryLimit.getByRole("button", { name: "Save" }).click();
    await expectToast(
      page,
      "success",
      "Casual stays disabled on Ada's phone, so its apps stay blocked; it will have a daily limit of 15 minutes once you enable it.",
    );
    await categoryLimit.getByRole("button", { name: "Daily limit", exact: true }).click();
    await expect(categoryLimit.getByRole("button", { name: "Daily limit", exact: true })).toHaveAttribute("aria-pressed", "false");
    await categoryLimit.getByRole("button", { name: "Save" }).click();
    await expectToast(
      page,
      "success",
      "Casual stays disabled on Ada's phone, so its apps stay blocked; it will have no daily limit once you enable it.",
    );

    // Extending Candy Crush shows the warning as the popup opens, and again instead of a toast when approved anyway.
    await phone.requests.ask("extend", CANDY, { minutes: 15 });
    await page.goto(requests);
    const candy = await waitForRequest(page, js, "Candy Crush");
    await candy.getByRole("link", { name: /^Extend Candy Crush/ }).click();
    const candyPopup = page.getByRole("dialog", { name: /Extend Candy Crush/ });
    const warning = page.getByTestId("category-warning");
    const warned =
      "The Casual category is disabled on Ada's phone, so extra time would not let Candy Crush Saga run. Enable the category first.";
    await expect(candyPopup.getByTestId("category-warning")).toContainText(warned);
    await candyPopup.getByRole("button", { name: "Approve" }).click();
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(warned);
    await expect(page.getByTestId("toast")).toHaveCount(0);
    const link = warning.getByRole("link");
    expect(new URL((await link.getAttribute("href"))!, "http://x").searchParams.get("appRequestPage")).toBe("true");
    // Enabling the category there brings the parent back to the requests (spec 2 §2 /category).
    await link.click();
    await expect(page).toHaveURL(/\/category\?.*appRequestPage=true/);
    await page.getByRole("button", { name: "Disabled", exact: true }).click();
    await expectToast(page, "success", "Casual is enabled on Ada's phone with no daily limit.");
    await expect(page).toHaveURL(/\/requests\?/);
    await expect(page.getByTestId("request").filter({ hasText: "Candy Crush" })).toBeVisible();
  } finally {
    await phone.close();
  }
});

test("install with a limit installs the app; uninstall removes it; a rejection reaches the phone", async ({ page, baseURL }, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "req-install", kid: ADA, apps: [DUOLINGO] });
  try {
    const requests = await openRequests(page);
    const asked = await phone.requests.ask("install", SCRATCH, { remarks: "Coding club" });
    const row = await waitForRequest(page, js, "ScratchJr");
    await expect(row).toContainText("App Installation Request");
    await row.getByRole("link", { name: "Install ScratchJr" }).click();
    const popup = page.getByRole("dialog", { name: "Install ScratchJr" });
    await expect(popup.getByRole("button", { name: "Daily limit", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect(popup.getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue("60");
    await popup.getByRole("button", { name: "Decrease minutes a day by 15 minutes" }).click();
    await expect(page.getByRole("dialog", { name: "Install ScratchJr" }).getByRole("spinbutton", { name: "Minutes a day" })).toHaveValue(
      "45",
    );
    await page.getByRole("dialog", { name: "Install ScratchJr" }).getByRole("button", { name: "Save and Install" }).click();
    await expectToast(page, "success", "Installing ScratchJr on Ada's phone with a daily limit of 45 minutes");
    await expect.poll(() => phone.state.installed.has(SCRATCH)).toBe(true);
    await expect.poll(() => phoneApp(phone.state.policy, SCRATCH)?.dailyLimitMinutes).toBe(45);
    expect(await phone.requests.waitForAnswer(asked, 10_000)).toMatchObject({ status: "Approved", dailyLimitMinutes: 45 });

    // The kid is done with it: the parent approves the uninstall and the phone removes it.
    const gone = await phone.requests.ask("uninstall", SCRATCH, { remarks: "Done with it" });
    await page.goto(requests);
    const un = await waitForRequest(page, js, "ScratchJr");
    await expect(un).toContainText("App Uninstallation Request");
    // UnInstall asks first; Cancel leaves it pending, Yes approves.
    await un.getByRole("link", { name: "UnInstall ScratchJr" }).click();
    const ask = page.getByRole("dialog", { name: "Uninstall ScratchJr?" });
    await expect(ask).toContainText("Remove ScratchJr from Ada's phone?");
    await expect(ask).toContainText("Done with it");
    await ask.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(phone.state.installed.has(SCRATCH)).toBe(true);
    await un.getByRole("link", { name: "UnInstall ScratchJr" }).click();
    await page.getByRole("dialog", { name: "Uninstall ScratchJr?" }).getByRole("button", { name: "Yes, uninstall" }).click();
    await expectToast(page, "success", "Uninstalling ScratchJr from Ada's phone");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect.poll(() => phone.state.installed.has(SCRATCH)).toBe(false);
    await expect.poll(() => phoneApp(phone.state.policy, SCRATCH)).toBeUndefined();
    expect(await phone.requests.waitForAnswer(gone, 10_000)).toMatchObject({ status: "Approved", requestType: "App Uninstall" });

    // A rejection reaches the phone as a notification.
    const no = await phone.requests.ask("install", "com.roblox.client", { remarks: "Everyone has it" });
    await page.goto(requests);
    const roblox = await waitForRequest(page, js, "Roblox");
    // The same parent on another device (its own cookie jar, the same session): the answer given here makes the
    // request leave it too (live with JavaScript). Not a second tab of this browser: a tab that refreshes while
    // this one's redirect loads can read the action's toast cookie first (one cookie jar).
    const otherDevice = await page.context().browser()!.newContext({ javaScriptEnabled: js, baseURL });
    await otherDevice.addCookies((await page.context().cookies()).filter((c) => !c.name.includes("toast")));
    const other = await otherDevice.newPage();
    await other.goto(requests);
    await expect(other.getByTestId("request").filter({ hasText: "Roblox" })).toBeVisible();
    await roblox.getByRole("button", { name: /^Reject Roblox/ }).click();
    await expectToast(page, "success", "Request rejected");
    await expect(page.getByText("No data found.")).toBeVisible();
    await eventually(other, js, async () =>
      expect(other.getByTestId("request").filter({ hasText: "Roblox" })).toHaveCount(0, { timeout: 1_000 }),
    );
    await otherDevice.close();
    expect(await phone.requests.waitForAnswer(no, 10_000)).toMatchObject({ status: "Rejected" });
    expect(phone.requests.notifications.at(-1)).toMatchObject({ title: "Request rejected" });
  } finally {
    await phone.close();
  }
});

test("a paid app's request says Coming Soon; extra minutes for an app without a limit are explained; an app turned off warns", async ({
  page,
  baseURL,
}, info) => {
  const js = info.project.name === "js";
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "req-read", kid: ADA, apps: [DUOLINGO] });
  try {
    const requests = await openRequests(page);
    const q = new URL(requests).searchParams;

    // Toca Kitchen 2 is a paid app: 'Coming Soon' where Install would be, and why; the parent can still say no.
    await phone.requests.ask("install", TOCA, { remarks: "Please" });
    const toca = await waitForRequest(page, js, "Toca Kitchen 2");
    await expect(toca.getByTestId("coming-soon")).toHaveText("Coming Soon");
    await expect(toca).toContainText("Paid apps cannot be installed yet.");
    await expect(toca.getByRole("link", { name: /^Install/ })).toHaveCount(0);
    await toca.getByRole("button", { name: "Reject Toca Kitchen 2" }).click();
    await expectToast(page, "success", "Request rejected");

    // Duolingo has no daily limit: the popup says what the extra minutes mean.
    await phone.requests.ask("extend", DUOLINGO, { minutes: 30 });
    await page.goto(requests);
    const duo = await waitForRequest(page, js, "Duolingo");
    await duo.getByRole("link", { name: /^Extend Duolingo/ }).click();
    const popup = page.getByRole("dialog", { name: /^Extend Duolingo/ });
    await expect(popup.getByTestId("extend-current")).toHaveText("No limit");
    await expect(popup.getByTestId("extend-no-limit")).toHaveText(
      /^Duolingo.* has no daily limit, so Ada can already use it as long as the phone's other time rules allow\. The extra minutes change nothing now; they count only if you give Duolingo.* a daily limit today\.$/,
    );
    await expect(popup.getByTestId("category-warning")).toHaveCount(0);

    // Duolingo turned off on its page: the popup warns and links to the app.
    await page.goto(
      `/application?${new URLSearchParams({ package_name: DUOLINGO, profile_id: q.get("profileId")!, serialNumber: q.get("serialNumber")!, tab: "usage" })}`,
    );
    await page.getByRole("button", { name: "Enabled", exact: true }).click();
    await expect(page.getByRole("button", { name: "Disabled", exact: true })).toBeVisible();
    await page.goto(requests);
    await page
      .getByTestId("request")
      .filter({ hasText: "Duolingo" })
      .getByRole("link", { name: /^Extend Duolingo/ })
      .click();
    const warning = page.getByRole("dialog", { name: /^Extend Duolingo/ }).getByTestId("category-warning");
    await expect(warning).toContainText(
      /^Duolingo.* is disabled on Ada's phone, so extra time would not let it run\. Enable the app first\./,
    );
    await warning.getByRole("link", { name: /^Change Duolingo/ }).click();
    await expect(page).toHaveURL(/\/application\?.*tab=usage/);
    await expect(page.getByRole("button", { name: "Disabled", exact: true })).toBeVisible();
  } finally {
    await phone.close();
  }
});
