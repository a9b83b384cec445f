import { expect, type Browser, type BrowserContext, type Page, type TestInfo } from "@playwright/test";
import { signIn } from "./auth.testing";
import type { DemoIds, Who } from "./pages.testing";

/** A signed-in browser state, reused by every page a role visits (one sign-in per role and project). */
export type SignedInState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** A context of the project (JavaScript on or off) at a phone's size, signed in as `who` from its kept state. */
export async function newContextAs(
  browser: Browser,
  info: TestInfo,
  who: Who,
  states: Partial<Record<Who, SignedInState>>,
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: info.project.use.baseURL,
    javaScriptEnabled: info.project.use.javaScriptEnabled,
    viewport: { width: 390, height: 844 },
    ...(who === "signed-out" ? {} : { storageState: states[who] }),
  });
}

/** Signs the demo parent in and reads the ids the pages need from the dashboard. */
async function readDemoIds(page: Page): Promise<DemoIds> {
  await signIn(page);
  const kidIds = async (name: string) => {
    await page.goto("/kids-device");
    const href = (await page
      .locator(".kid-switch nav a")
      .filter({ hasText: new RegExp(`^${name} · `) })
      .getAttribute("href"))!; // inside the closed switcher
    const profileId = new URL(href, "http://x").searchParams.get("profileId")!;
    await page.goto(`/kids-device?profileId=${profileId}`);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const settings = (await page.getByRole("link", { name: "Global Settings" }).first().getAttribute("href"))!;
    return { profileId, serialNumber: new URL(settings, "http://x").searchParams.get("serialNumber")! };
  };
  const leo = await kidIds("Leo");
  const mia = await kidIds("Mia");
  await page.goto(`/kids-device?profileId=${mia.profileId}&filter=week&week=previous`); // last week always has use; today (early on a Monday, this week) may not yet
  const appHref = (await page.getByTestId("apps-list").getByRole("link").first().getAttribute("href"))!;
  const catHref = (await page.getByTestId("categories-list").getByRole("link").first().getAttribute("href"))!;
  return {
    mia,
    leo,
    packageName: new URL(appHref, "http://x").searchParams.get("package_name")!,
    categoryId: new URL(catHref, "http://x").searchParams.get("id")!,
  };
}

/**
 * What a walk over BUILT_PAGES (e2e/pages.testing.ts) needs: the demo family's ids and a signed-in state for the
 * demo parent and the operator, each signed in once.
 */
export async function signInForBuiltPages(
  browser: Browser,
  info: TestInfo,
): Promise<{ ids: DemoIds; states: Partial<Record<Who, SignedInState>> }> {
  const states: Partial<Record<Who, SignedInState>> = {};
  const parent = await newContextAs(browser, info, "signed-out", states);
  const ids = await readDemoIds(await parent.newPage());
  states.parent = await parent.storageState();
  await parent.close();
  const operator = await newContextAs(browser, info, "signed-out", states);
  await signIn(await operator.newPage(), "operator@kids-portal.test", "operator-2026!");
  states.operator = await operator.storageState();
  await operator.close();
  return { ids, states };
}
