import { expect, test } from "./mail.testing";
import { expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";

// Alerts (issue 55), in the `js` and `no-js` projects: a new family's phone (the simulator, run here) asks to install
// an app; the header's bell counts the alert (live with JavaScript, after a reload without), /alerts lists it with its
// filters in the URL, the parent's mail reaches the SMTP peer, and the settings page saves and refuses bad input.
const KID = { name: "Alba", birthMonth: "June", birthYear: "2014" };
const TITLE = "Alba asked to install ScratchJr";

test("a request from the phone: the bell counts it, /alerts lists it, the mail arrives; mark as read clears the bell", async ({
  page,
  baseURL,
  mailbox,
}, info) => {
  const js = info.project.name === "js";
  const before = mailbox.mails.length;
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "alerts", kid: KID, apps: ["com.duolingo"] });
  try {
    await page.goto("/alerts");
    await expect(page.getByText("No alerts yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Alerts, none unread" })).toBeVisible();
    await phone.requests.ask("install", "org.scratchjr.android", { remarks: "Coding club" });
    const bell = page.getByRole("link", { name: "Alerts, 1 unread" });
    if (js) await expect(bell).toBeVisible({ timeout: 15_000 });
    else
      await expect(async () => {
        await page.reload();
        await expect(bell).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
    await page.goto("/kids-device");
    await page.getByRole("link", { name: "Alerts, 1 unread" }).click();
    await expect(page).toHaveURL(/\/alerts$/);
    const item = page.getByTestId("alert-item").filter({ hasText: TITLE });
    await expect(item).toContainText('Alba wrote: "Coding club"');

    // Filters live in the URL.
    await page.getByLabel("Kind").selectOption({ label: "Uninstall requests" });
    await page.getByRole("button", { name: "Show alerts" }).click();
    await expect(page).toHaveURL(/kind=request\.uninstall/);
    await expect(page.getByText("No alerts yet.")).toBeVisible();
    await page.getByLabel("Kind").selectOption({ label: "Install requests" });
    await page.getByRole("button", { name: "Show alerts" }).click();
    await expect(page).toHaveURL(/kind=request\.install/);
    await expect(item).toBeVisible();
    await page.goto("/alerts?kind=nonsense");
    await expect(page.getByRole("alert").filter({ hasText: "There is no such kind of alert" })).toBeVisible();

    await item.getByRole("button", { name: `Mark as read: ${TITLE}` }).click();
    await expectToast(page, "success", "Alert marked as read.");
    await expect(page.getByRole("link", { name: "Alerts, none unread" })).toBeVisible();

    // E-mail is on for requests by default: the mail reached the SMTP peer, with its unsubscribe link.
    await expect.poll(() => mailbox.mails.slice(before).find((m) => m.subject === TITLE)?.subject, { timeout: 30_000 }).toBe(TITLE);
    const mail = mailbox.mails.slice(before).find((m) => m.subject === TITLE)!;
    expect(mail.text).toContain("To stop alert e-mails, open: ");
    expect(mail.text).toMatch(/\/alerts\/unsubscribe\?parent=/);
  } finally {
    await phone.close();
  }
});

test("alert settings: switches and quiet hours are saved; a bad time is refused and nothing is lost", async ({ page, baseURL }, info) => {
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "alert-settings", kid: KID, apps: [] });
  try {
    await page.goto("/alert-settings");
    await expect(page.getByRole("heading", { level: 1, name: "Alert settings" })).toBeVisible();
    const battery = page.getByRole("checkbox", { name: "Battery under 15 %: E-mail" });
    await expect(battery).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Install requests: E-mail", exact: true })).toBeChecked();
    await battery.check();
    await page.getByRole("checkbox", { name: "Quiet hours on" }).check();
    await page.getByLabel("Quiet hours start").fill("22:00");
    await page.getByLabel("Quiet hours end").fill("22:00");
    await page.getByRole("button", { name: "Save alert settings" }).click();
    await expect(page.getByText("Quiet hours must end at another time than they start.")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Battery under 15 %: E-mail" })).toBeChecked();
    await page.getByLabel("Quiet hours end").fill("07:00");
    await page.getByRole("button", { name: "Save alert settings" }).click();
    await expectToast(page, "success", "Alert settings saved.");
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Battery under 15 %: E-mail" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Quiet hours on" })).toBeChecked();
    await expect(page.getByLabel("Quiet hours end")).toHaveValue("07:00");
  } finally {
    await phone.close();
  }
});
