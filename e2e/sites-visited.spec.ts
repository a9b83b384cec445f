import { expect, test } from "@playwright/test";
import { expectToast, openKid, signInDemo } from "./dashboard.testing";
import { lookUpOnPhone } from "./phone-control.testing";

// Issue 54 item 5, in the `js` and the `no-js` projects against the demo family: Leo's lookups through the web filter
// become the Sites visited list of /browser-logs; one click blocks a site (and unblocks it). Each project uses its own
// names, as both run against the same server.

test("sites visited: Leo's lookups listed per domain, Block in one click marks the site, the next lookup is blocked, Unblock", async ({
  page,
}, info) => {
  const games = `${info.project.name}-games.example`;
  const school = `${info.project.name}-school.example`;
  await signInDemo(page);
  const leo = await openKid(page, "Leo");
  await lookUpOnPhone(leo.serialNumber, [`www.${games}`, games, school]);

  await page.goto(`/browser-logs?profileId=${leo.profileId}&serialNumber=${leo.serialNumber}`);
  await page.getByRole("navigation", { name: "Browser log lists" }).getByRole("link", { name: "Sites visited" }).click();
  await expect(page).toHaveURL(/view=sites/);
  await expect(page.getByRole("heading", { level: 2, name: "Sites visited" })).toBeVisible();
  const list = page.getByRole("list", { name: "Sites visited" });
  const row = list.getByRole("listitem").filter({ hasText: games });
  await expect(row).toContainText("Allowed");
  await expect(row).toContainText("2 lookups");
  await expect(row).toContainText(/First: \w{3} \d+, \d{4}, \d+:\d{2} [AP]M UTC · Last: /);
  await expect(list.getByRole("listitem").filter({ hasText: school })).toContainText("1 lookup");

  await row.getByRole("button", { name: `Block ${games}` }).click();
  await expectToast(page, "success", `${games} is blocked on Leo's phone.`);
  await expect(page).toHaveURL(/view=sites/);
  await expect(row).toContainText(`Blocked from now on: blocked address ${games}`);
  await expect(row.getByRole("button", { name: `Unblock ${games}` })).toBeVisible();

  // The filter has the new rule at once: Leo's next lookup of the site is blocked, and says why.
  await lookUpOnPhone(leo.serialNumber, [games]);
  await page.reload();
  await expect(row.locator(".badge")).toHaveText("Blocked");
  await expect(row).toContainText(`Blocked address ${games}`);
  await expect(row).toContainText("3 lookups");

  await row.getByRole("button", { name: `Unblock ${games}` }).click();
  await expectToast(page, "success", `${games} is unblocked on Leo's phone.`);
  await expect(row.getByRole("button", { name: `Block ${games}` })).toBeVisible();
  await expect(row).not.toContainText("Blocked from now on");

  // Another day: the empty list says so.
  await page.getByRole("link", { name: "Previous day" }).click();
  await expect(page).toHaveURL(/view=sites/);
  await expect(page.getByText(/^No sites visited on this day\./)).toBeVisible();
});
