import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";
import lighthouse, { type Result } from "lighthouse";
import { DEMO } from "./auth.testing";
import { openKid } from "./dashboard.testing";
import { BLOCKED_THIRD_PARTY, LIGHTHOUSE_CATEGORIES, LIGHTHOUSE_TARGETS, categoryScore, lighthouseFailures } from "./lighthouse.testing";

// Issue 53 item 10: Lighthouse (npm) in Debian's Chromium, at its default mobile settings (mobile form factor,
// simulated throttling), on five pages signed in as the demo parent: performance ≥ 95, accessibility 100, best
// practices 100. Beside it, screenshots of the same pages at 390 and 1280 px, kept as CI artifacts in
// <outputDir>/screenshots (test-results/screenshots/ by default; docs/contributing.md). The `js` project only
// (playwright.config.ts): Lighthouse drives a browser of its own, with JavaScript on as a phone has it.

interface Ids {
  profileId: string;
  serialNumber: string;
  packageName: string;
  reportPath: string;
}

const PAGES: { name: string; path: (ids: Ids) => string }[] = [
  { name: "dashboard", path: (ids) => `/kids-device?profileId=${ids.profileId}` },
  {
    name: "application",
    path: (ids) =>
      `/application?${new URLSearchParams({ package_name: ids.packageName, profile_id: ids.profileId, serialNumber: ids.serialNumber })}`,
  },
  { name: "play-store", path: (ids) => `/play-store?${new URLSearchParams({ profileId: ids.profileId, serialNumber: ids.serialNumber })}` },
  { name: "requests", path: (ids) => `/requests?${new URLSearchParams({ profileId: ids.profileId, serialNumber: ids.serialNumber })}` },
  { name: "report", path: (ids) => ids.reportPath },
];

/**
 * Performance is a simulation over the run's observed trace, so a busy machine (a 2-core CI box) moves it by a
 * few points: a page below its target is measured twice more and judged by the median of the three, as
 * Lighthouse's own guidance on variability advises. Accessibility and best practices do not vary.
 */
const PERFORMANCE_RUNS_ON_A_MISS = 3;

let api: APIRequestContext;
let lighthouseBrowser: BrowserContext;
let debuggingPort: number;
let userDataDir: string;
let ids: Ids;

/** The Monday that starts the last week closed in UTC (its report exists: the demo's reports are built at start). */
function lastClosedMonday(now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (((now.getUTCDay() + 6) % 7) + 7) * 86_400_000);
}

test.beforeAll(async ({ playwright, browser, launchOptions }, info) => {
  test.setTimeout(120_000);
  const baseURL = info.project.use.baseURL!;
  // Signed in over HTTP: the sign-in form's post, whose session cookie the API context keeps.
  api = await playwright.request.newContext({ baseURL });
  expect((await api.post("/login", { form: { email: DEMO.email, password: DEMO.password } })).ok()).toBe(true);
  expect(new URL((await api.get("/kids-device")).url()).pathname).toBe("/kids-device"); // not sent back to /login
  const { cookies } = await api.storageState();

  // The ids from the pages themselves (the demo seed makes new ones on every start): Mia, an app she used last
  // week, and her report of the last closed week.
  const context = await browser.newContext({ baseURL, storageState: { cookies, origins: [] } });
  const page = await context.newPage();
  const kid = await openKid(page, "Mia", "&filter=week&week=previous");
  const appHref = (await page.getByTestId("apps-list").getByRole("link").first().getAttribute("href"))!;
  const monday = lastClosedMonday();
  await page.goto(
    `/reports?${new URLSearchParams({ ...kid, month: String(monday.getUTCMonth() + 1), year: String(monday.getUTCFullYear()) })}`,
  );
  const reportHref = (await page.locator("a[href^='/report?id=']").first().getAttribute("href"))!;
  ids = { ...kid, packageName: new URL(appHref, baseURL).searchParams.get("package_name")!, reportPath: reportHref };
  await context.close();

  // Lighthouse's browser: Debian's Chromium (the project's), with a DevTools port Lighthouse connects to. Its
  // default context holds the session cookie; Lighthouse opens its own tab there and emulates the phone itself.
  userDataDir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-lighthouse-"));
  lighthouseBrowser = await playwright.chromium.launchPersistentContext(userDataDir, {
    ...launchOptions,
    args: [...(launchOptions.args ?? []), "--remote-debugging-port=0"],
    viewport: null,
  });
  await lighthouseBrowser.addCookies(cookies);
  debuggingPort = Number(readFileSync(path.join(userDataDir, "DevToolsActivePort"), "utf8").split("\n")[0]);
});

test.afterAll(async () => {
  await lighthouseBrowser?.close();
  await api?.dispose();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

async function runLighthouse(url: string): Promise<Result> {
  const result = await lighthouse(url, {
    port: debuggingPort,
    output: "json",
    logLevel: "error",
    onlyCategories: [...LIGHTHOUSE_CATEGORIES],
    blockedUrlPatterns: BLOCKED_THIRD_PARTY,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.message}`);
  // Measured signed in: the page itself, not the sign-in page it would redirect to.
  expect(new URL(lhr.finalDisplayedUrl).pathname).toBe(new URL(url).pathname);
  return lhr;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const target of PAGES) {
  test(`lighthouse (mobile): ${target.name} scores performance ≥ ${LIGHTHOUSE_TARGETS.performance}, accessibility ${LIGHTHOUSE_TARGETS.accessibility}, best practices ${LIGHTHOUSE_TARGETS["best-practices"]}; screenshots at 390 and 1280 px`, async ({
    browser,
  }, info) => {
    test.setTimeout(180_000);
    const url = new URL(target.path(ids), info.project.use.baseURL).href;

    // The screenshots first: a failing score still leaves them for the CI artifacts.
    const dir = path.join(info.project.outputDir, "screenshots");
    mkdirSync(dir, { recursive: true });
    const { cookies } = await api.storageState();
    for (const width of [390, 1280]) {
      const context = await browser.newContext({
        viewport: { width, height: width === 390 ? 844 : 800 },
        storageState: { cookies, origins: [] },
      });
      const page = await context.newPage();
      await page.goto(url);
      // What loads as it nears the screen (the dashboard's map frame) is brought into view once, so it is in the picture.
      const slots = page.locator(".map-frame-slot");
      for (let i = 0; i < (await slots.count()); i++) {
        await slots.nth(i).scrollIntoViewIfNeeded();
        await expect(slots.nth(i).locator("iframe")).toBeAttached();
      }
      for (const frame of page.frames()) await frame.waitForLoadState("load");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(dir, `${target.name}-${width}.png`), fullPage: true });
      await context.close();
    }

    const runs = [await runLighthouse(url)];
    if (categoryScore(runs[0], "performance") < LIGHTHOUSE_TARGETS.performance)
      while (runs.length < PERFORMANCE_RUNS_ON_A_MISS) runs.push(await runLighthouse(url));
    const performance = runs.map((lhr) => categoryScore(lhr, "performance"));
    const judged = runs.find((lhr) => categoryScore(lhr, "performance") === median(performance))!;
    const scores = Object.fromEntries(LIGHTHOUSE_CATEGORIES.map((c) => [c, categoryScore(judged, c)]));
    console.log(
      `lighthouse ${target.name}: ${JSON.stringify(scores)}${runs.length > 1 ? ` (performance runs ${performance.join(", ")})` : ""}`,
    );
    const failures = lighthouseFailures(judged);
    if (failures.length)
      await info.attach(`lighthouse-${target.name}.json`, { body: JSON.stringify(judged), contentType: "application/json" });
    expect(failures, `Lighthouse (mobile) on ${target.name} (${url}):\n${failures.join("\n")}`).toEqual([]);
  });
}
