import { expect, test } from "@playwright/test";
import { expectToast } from "./dashboard.testing";
import { familyWithPhone } from "./family.testing";

// The Web Filter page (issue 54 item 4), in the `js` and `no-js` projects: a new family with one phone. A switch
// changes a draft (in the URL without JavaScript), Save stores it.

test("block Social networks, SafeSearch on, an allowed site: a bad site says why and keeps the rest; Save keeps it", async ({
  page,
  baseURL,
}, info) => {
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "webfilter", apps: [] });
  try {
    await page.goto("/kids-device");
    await page.getByRole("navigation", { name: "Ivy's settings" }).getByRole("link", { name: "Web Filter" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Web Filter" })).toBeVisible();

    // The phone's hostname when the filter runs on this server, else a plain word that it is switched off.
    const dns = page.locator("#private-dns");
    if (await dns.getByLabel("Private DNS hostname").count())
      await expect(dns.getByLabel("Private DNS hostname")).toHaveValue(/^[a-z0-9]{20}\./);
    else await expect(dns).toContainText("The web filter is switched off on this server.");

    const social = page.getByRole("button", { name: "Social networks", exact: true });
    const safeSearch = page.getByRole("button", { name: "SafeSearch", exact: true });
    await expect(page.locator("#cat-social-networks")).toContainText(/\d+ sites listed/);
    await expect(social).toHaveAttribute("aria-pressed", "false");
    await social.click();
    await expect(social).toHaveAttribute("aria-pressed", "true");
    await safeSearch.click();
    await expect(safeSearch).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("web-filter-unsaved")).toHaveText("Changes not saved yet.");

    // A bad site: its message, and nothing else lost.
    const site = page.getByLabel("Site to allow");
    await site.fill("not a site");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.locator("#newHost-error")).toHaveText("“not a site” is not a website name: type a site such as example.com.");
    await expect(site).toHaveValue("not a site");
    await expect(site).toHaveAttribute("aria-invalid", "true");
    await expect(social).toHaveAttribute("aria-pressed", "true");
    await expect(safeSearch).toHaveAttribute("aria-pressed", "true");

    await site.fill("https://www.KhanAcademy.org/math");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.locator("#allow")).toContainText("www.khanacademy.org");
    await expect(page.locator("#newHost-error")).toHaveCount(0);
    await expect(social).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("group", { name: "YouTube Restricted Mode" }).getByLabel("Strict").check();

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expectToast(
      page,
      "success",
      "Web filter saved: Social networks blocked; SafeSearch on; YouTube Restricted Mode strict; www.khanacademy.org always allowed.",
    );
    await page.reload();
    await expect(social).toHaveAttribute("aria-pressed", "true");
    await expect(safeSearch).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByLabel("Strict")).toBeChecked();
    await expect(page.locator("#allow")).toContainText("www.khanacademy.org");
    await expect(page.getByTestId("web-filter-unsaved")).toHaveText("All changes saved.");

    // Remove, then Save: the site is gone after a reload.
    await page.getByRole("button", { name: "Remove www.khanacademy.org" }).click();
    await expect(page.locator("#allow")).not.toContainText("www.khanacademy.org");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expectToast(page, "success", "Web filter saved: www.khanacademy.org no longer always allowed.");
    await page.reload();
    await expect(page.locator("#allow")).toContainText("No sites yet.");
    await expect(social).toHaveAttribute("aria-pressed", "true");
  } finally {
    await phone.close();
  }
});

test("the side menu leads to the Web Filter of the shown kid", async ({ page, baseURL }, info) => {
  const { phone } = await familyWithPhone(page, baseURL!, info.project.name, { tag: "webfiltermenu", apps: [] });
  try {
    await page.goto("/kids-device");
    await page.getByLabel("Open menu").click();
    const href = await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Web Filter" }).getAttribute("href");
    expect(href).toMatch(/^\/web-filter\?profileId=[^&]+&serialNumber=E2E-WEBFILTERMENU-/);
    await page.goto(href!);
    await expect(page.getByRole("heading", { level: 1, name: "Web Filter" })).toBeVisible();
  } finally {
    await phone.close();
  }
});
