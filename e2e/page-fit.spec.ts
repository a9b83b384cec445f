import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { newContextAs, signInForBuiltPages } from "./built-pages.testing";
import { BUILT_PAGES, type DemoIds, type Who } from "./pages.testing";

// No blank tails (issue 53 item 2), in the `js` and `no-js` projects: on every built page and popup, at a phone's
// size and a laptop's, the document scrolls at most one screen past the bottom of its footer (or, on a page
// without one, of the last element the page shows). Something visually hidden but still taking space (the charts'
// data tables were) makes blank scrolling under the footer.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

let ids: DemoIds;
const contexts: Partial<Record<Who, BrowserContext>> = {};

test.beforeAll(async ({ browser }, info) => {
  const signedIn = await signInForBuiltPages(browser, info);
  ids = signedIn.ids;
  for (const who of ["signed-out", "parent", "operator"] as const) contexts[who] = await newContextAs(browser, info, who, signedIn.states);
});

test.afterAll(async () => {
  await Promise.all(Object.values(contexts).map((c) => c?.close()));
});

interface Fit {
  /** How far the document scrolls past the footer's (or last element's) bottom edge, in CSS pixels. */
  tail: number;
  innerHeight: number;
  /** What the tail is measured from. */
  end: string;
  /** The elements reaching furthest below it (what makes a tail too long). */
  below: string[];
}

/** Measures the page as laid out now (page coordinates: the bounding box plus the scroll offset). */
function measure(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const bottomOf = (el: Element) => el.getBoundingClientRect().bottom + window.scrollY;
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""}`;
    const footers = [...document.querySelectorAll("footer")].filter(shown).sort((a, b) => bottomOf(a) - bottomOf(b));
    const lastShown = [...document.body.children]
      .filter((el) => !["SCRIPT", "STYLE", "LINK", "TEMPLATE"].includes(el.tagName) && shown(el))
      .at(-1);
    const end = footers.at(-1) ?? lastShown ?? document.body;
    const endBottom = bottomOf(end);
    const below = [...document.body.querySelectorAll("*")]
      .map((el) => ({ el, bottom: bottomOf(el) }))
      .filter((x) => x.bottom > endBottom + 1)
      .sort((a, b) => b.bottom - a.bottom)
      .slice(0, 5)
      .map((x) => `${name(x.el)} ends ${Math.round(x.bottom - endBottom)} px below`);
    return { tail: document.scrollingElement!.scrollHeight - endBottom, innerHeight: window.innerHeight, end: name(end), below };
  });
}

for (const p of BUILT_PAGES) {
  test(`page fit: ${p.name} scrolls no more than a screen past its footer`, async () => {
    const page = await contexts[p.who]!.newPage();
    try {
      await page.setViewportSize(SIZES[0]);
      const res = await page.goto(p.url(ids));
      expect(res?.status(), "status").toBe(p.status ?? 200);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const fit = await measure(page);
        expect(
          fit.tail,
          `${size.width}×${size.height}: ${Math.round(fit.tail)} px scroll past the bottom of ${fit.end}\n  ${fit.below.join("\n  ")}`,
        ).toBeLessThanOrEqual(fit.innerHeight);
      }
    } finally {
      await page.close();
    }
  });
}
