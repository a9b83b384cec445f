import { expect, test } from "@playwright/test";
import { eventually, openKid, signInDemo } from "./dashboard.testing";
import { setPrivateDnsOnPhone } from "./phone-control.testing";

// Issue 54 item 4, in the `js` and the `no-js` projects: the demo phone sets the Private DNS hostname its policy names;
// the kid turns it off, and the dashboard warns with a link to the Web Filter page's steps; back on, the warning goes.

test("the kid turns Private DNS off on the phone: the dashboard warns, the Web Filter page says so; back on, no warning", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInDemo(page);
  const mia = await openKid(page, "Mia");
  const warning = page.getByTestId("private-dns-warning");
  try {
    await setPrivateDnsOnPhone(mia.serialNumber, "off");
    await eventually(page, javaScriptEnabled, async () => {
      await expect(warning).toContainText("Private DNS is off on this phone: the web filter does not apply.", { timeout: 1_000 });
    });
    await expect(warning).toHaveAttribute("role", "alert");
    await warning.getByRole("link", { name: "See the Private DNS steps" }).click();
    await expect(page).toHaveURL(new RegExp(`/web-filter\\?profileId=${mia.profileId}&serialNumber=${mia.serialNumber}#private-dns$`));
    await expect(page.getByRole("heading", { level: 1, name: "Web Filter" })).toBeVisible();
    await expect(page.getByTestId("private-dns-phone")).toHaveText("Private DNS is off on this phone: the web filter does not apply.");

    await setPrivateDnsOnPhone(mia.serialNumber, "dns.google");
    await page.goto(`/kids-device?profileId=${mia.profileId}`);
    await expect(warning).toContainText("Private DNS on this phone is set to another server: dns.google. The web filter does not apply.");
  } finally {
    await setPrivateDnsOnPhone(mia.serialNumber, "policy");
  }
  await page.goto(`/kids-device?profileId=${mia.profileId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Mia" })).toBeVisible();
  await expect(warning).toHaveCount(0);
  await page.goto(`/web-filter?profileId=${mia.profileId}&serialNumber=${mia.serialNumber}`);
  await expect(page.getByTestId("private-dns-phone")).toHaveText("This phone uses this hostname: the web filter applies.");
});
