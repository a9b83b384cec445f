import { expect, test } from "@playwright/test";
import { signIn, signOut } from "./auth.testing";
import { eventually, expectToast, openKid, signInDemo } from "./dashboard.testing";
import { storeDeviceLogs, visitOnPhone } from "./phone-control.testing";

// Issue 15, in the `js` and the `no-js` projects against the demo family and its simulated phones.

test("browser logs: block example.com, the phone blocks www.example.com/page, search, filter, Unblock All", async ({ page }) => {
  await signInDemo(page);
  const leo = await openKid(page, "Leo");
  const base = `/browser-logs?profileId=${leo.profileId}&serialNumber=${leo.serialNumber}`;
  await page.goto(base);
  await expect(page.getByRole("heading", { level: 1, name: "Browser Logs" })).toBeVisible();

  await page.getByRole("textbox", { name: "URL", exact: true }).fill("example.com");
  await page.getByRole("combobox", { name: "Status", exact: true }).selectOption("block");
  await page.getByRole("button", { name: "Add" }).click();
  await expectToast(page, "success", "example.com is blocked on Leo's phone.");

  // The phone applies the new policy, then the kid tries a page under the blocked host, and another site.
  expect(await visitOnPhone(leo.serialNumber, "https://www.example.com/page", { expectBlocked: true })).toEqual({ blocked: true });
  expect(await visitOnPhone(leo.serialNumber, "https://www.wikipedia.org/")).toEqual({ blocked: false });

  await page.goto(base);
  const list = page.getByRole("list", { name: "Web addresses" });
  const visit = list.getByRole("listitem").filter({ has: page.getByRole("link", { name: "www.example.com/page", exact: true }) });
  await expect(visit).toContainText("Blocked");
  await expect(visit).toContainText("by example.com");
  await expect(visit).toContainText(/Created: \w{3} \d+, \d{4}, \d+:\d{2} [AP]M UTC/);
  await expect(visit.getByRole("link", { name: "www.example.com/page" })).toHaveAttribute("href", "http://www.example.com/page");
  await expect(visit.getByRole("button", { name: "Unblock www.example.com/page" })).toBeVisible();

  // Search by URL text: in the URL, so it works without JavaScript.
  await page.getByRole("searchbox", { name: "Search URL" }).fill("example");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/urlText=example/);
  await expect(list.getByRole("link", { name: "www.example.com/page" })).toBeVisible();
  await expect(list.getByRole("link", { name: "www.wikipedia.org" })).toHaveCount(0);

  // Filter by status: Unblock All only shows with the block filter and results.
  await expect(page.getByRole("link", { name: "Unblock All" })).toHaveCount(0);
  await page.getByRole("combobox", { name: "Filter by status" }).selectOption("block");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/filterByStatus=block/);
  await expect(list.getByRole("link", { name: "www.example.com/page" })).toBeVisible();
  await page.getByRole("link", { name: "Unblock All" }).click();
  await expect(page).toHaveURL(/confirm=unblock-all/);
  const dialog = page.getByRole("dialog", { name: "Unblock All" });
  await expect(dialog).toContainText("Unblock every web address on Leo's phone?");
  await dialog.getByRole("button", { name: "Unblock All" }).click();
  await expectToast(page, "success", "Every web address is unblocked on Leo's phone.");
  await expect(page).not.toHaveURL(/confirm=/);
  await expect(page.getByText("No data found.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Unblock All" })).toHaveCount(0);

  await page.getByRole("combobox", { name: "Filter by status" }).selectOption("unblock");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(list.getByRole("listitem").filter({ hasText: "www.example.com/page" })).toContainText("Allowed");

  // Day navigation: yesterday has none of today's rows; back to today.
  await page.getByRole("link", { name: "Previous day" }).click();
  await expect(page).toHaveURL(/currentDate=\d{4}-\d{2}-\d{2}/);
  await expect(page.getByText("No data found.")).toBeVisible();
  await page.getByRole("link", { name: "Next day" }).click();
  await expect(page).not.toHaveURL(/currentDate=/);
});

test("device logs: Fetch Log shows the phone's log card; a command from the form is acknowledged", async ({ page }, info) => {
  const js = info.project.name === "js";
  await signInDemo(page);
  const leo = await openKid(page, "Leo");
  await page.goto(`/device-logs?profileId=${leo.profileId}&serialNumber=${leo.serialNumber}`);
  await expect(page.getByRole("heading", { level: 1, name: "Device Logs" })).toBeVisible();

  await page.getByRole("button", { name: "Fetch Log" }).click();
  await expectToast(page, "success", "Asking for the logs of Leo's phone.");
  const cards = page.getByRole("list", { name: "Log cards" });
  await eventually(page, js, async () => {
    await expect(cards.getByRole("listitem").first()).toContainText("Kids app log", { timeout: 1_000 });
  });
  const card = cards.getByRole("listitem").first();
  await expect(card).toContainText("appVersion");
  await expect(card).toContainText("3.8.1");
  await expect(card.getByText(/^installed \(\d+\)$/)).toBeVisible();

  const title = `Dinner ${info.project.name}`;
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByRole("textbox", { name: "Message" }).fill("Time to come downstairs");
  await page.getByRole("combobox", { name: "Action" }).selectOption("enable_vpn");
  await page.getByRole("button", { name: "Send" }).click();
  await expectToast(page, "success", "Enable VPN command sent to Leo's phone.");
  const command = page.getByRole("list", { name: "Commands" }).getByRole("listitem").filter({ hasText: title });
  await expect(command).toContainText("by Alex Morgan");
  await eventually(page, js, async () => {
    await expect(command).toContainText("Acknowledged", { timeout: 1_000 });
  });

  // A package action without a package: the spec's failure text, with the reason.
  await page.getByRole("combobox", { name: "Action" }).selectOption("disable_app");
  await page.getByRole("button", { name: "Send" }).click();
  await expectToast(page, "error", "Failed to send command. Please enter the package name of the app.");
});

test("device logs: a day with many logs shows one page of 20 cards and links to the older ones and back", async ({ page }, info) => {
  await signInDemo(page);
  const leo = await openKid(page, "Leo");
  // A day of its own per project (both may run against one server).
  const day = info.project.name === "js" ? "2026-01-15" : "2026-01-16";
  await storeDeviceLogs(leo.serialNumber, day, 45);
  await page.goto(`/device-logs?profileId=${leo.profileId}&serialNumber=${leo.serialNumber}&currentDate=${day}`);
  const cards = page
    .getByRole("list", { name: "Log cards" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3 }) });
  await expect(cards).toHaveCount(20);
  await expect(cards.first()).toContainText("Stored log 45"); // newest first
  const pages = page.getByRole("navigation", { name: "Log pages" });
  await expect(pages).toContainText("Page 1");
  await pages.getByRole("link", { name: "Older logs" }).click();
  await expect(page).toHaveURL(/logsPage=2/);
  await expect(pages).toContainText("Page 2");
  await expect(cards).toHaveCount(20);
  await expect(cards.first()).toContainText("Stored log 25");
  await pages.getByRole("link", { name: "Older logs" }).click();
  await expect(cards).toHaveCount(5);
  await expect(pages.getByRole("link", { name: "Older logs" })).toHaveCount(0);
  await pages.getByRole("link", { name: "Newer logs" }).click();
  await expect(page).toHaveURL(/logsPage=2/);
  await expect(cards.first()).toContainText("Stored log 25");
});

test("server logs: a parent gets 403; an operator lists today's file and opens it", async ({ page }) => {
  await signInDemo(page);
  const refused = await page.goto("/server-logs");
  expect(refused?.status()).toBe(403);
  await page.goto("/kids-device");
  await signOut(page);

  await signIn(page, "operator@kids-portal.test", "operator-2026!");
  await page.goto("/server-logs");
  await expect(page.getByRole("heading", { level: 1, name: "Server Logs" })).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  const link = page.getByRole("list", { name: "Log files" }).getByRole("link", { name: new RegExp(`^${today}-web-\\d+\\.log$`) });
  await expect(link).toHaveCount(1);
  const href = (await link.getAttribute("href"))!;
  expect(href).toMatch(new RegExp(`^/kids/${today}-web-\\d+\\.log$`));
  const file = await page.request.get(href);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(await file.text()).toContain('"msg":"operator-only page refused"');

  for (const bad of [
    "/kids/..%2F..%2Fetc%2Fpasswd",
    "/kids/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/kids/portal.sqlite",
    "/kids/..%5C.session-secret",
  ]) {
    expect((await page.request.get(bad)).status(), bad).toBe(404);
  }
});
