import { expect, test, type Page } from "@playwright/test";
import { REST_KEY, seriesColour } from "../core/chart-colours";
import { openKid, signInDemo } from "./dashboard.testing";

// Each journey runs twice: in the `js` and the `no-js` project, against the demo family.

/** The shown chart's series: each legend key with its swatch's colour and the fills of its bars (as #rrggbb). */
async function chartColours(page: Page): Promise<Map<string, { swatch: string; bars: string[] }>> {
  const figure = page.locator("figure.chart").first();
  await expect(figure.locator(".chart-legend .swatch").first()).toBeVisible();
  const entries = await figure.evaluate((f) => {
    const hex = (c: string) => {
      const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(c);
      return m ? `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("")}` : c.toLowerCase();
    };
    // The chart drawn at this width (phone or wide): the one that is displayed.
    const svg = [...f.querySelectorAll<HTMLElement>(".chart-svg")].find((d) => getComputedStyle(d).display !== "none");
    return [...f.querySelectorAll<HTMLElement>(".chart-legend .swatch")].map((s) => {
      const key = s.dataset.key ?? "";
      const bars = [...(svg?.querySelectorAll("rect[data-key]") ?? [])].filter((r) => r.getAttribute("data-key") === key);
      // A striped series' bars fill with a pattern: its colour is the pattern's first rectangle's.
      const fillOf = (r: Element) => {
        const fill = r.getAttribute("fill") ?? "";
        const id = /^url\(#(.+)\)$/.exec(fill)?.[1];
        return (id ? (svg?.querySelector(`pattern[id="${id}"] rect`)?.getAttribute("fill") ?? fill) : fill).toLowerCase();
      };
      return [key, { swatch: hex(getComputedStyle(s).backgroundColor), bars: bars.map(fillOf) }] as const;
    });
  });
  return new Map(entries);
}

test("a category keeps its colour on the Day and Week charts and on its own page", async ({ page }) => {
  await signInDemo(page);
  // Yesterday and the previous week: whole periods the demo has screen time in, whatever the time of day.
  const today = new Date();
  const yesterday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - 86_400_000)
    .toISOString()
    .slice(0, 10);
  await openKid(page, "Mia", `&date=${yesterday}`);
  await expect(page.getByTestId("period-label")).not.toHaveText("Today");
  const day = await chartColours(page);
  await page.getByRole("link", { name: "Week", exact: true }).click();
  await expect(page).toHaveURL(/filter=week/);
  await page.getByRole("link", { name: "Previous Week" }).click();
  await expect(page).toHaveURL(/week=previous/);
  const week = await chartColours(page);

  // Every series: its swatch and its bars in its own colour (the rest grey), on both charts.
  for (const chart of [day, week]) {
    for (const [key, { swatch, bars }] of chart) {
      expect(swatch, key).toBe(seriesColour(key));
      expect(bars.length, key).toBeGreaterThan(0);
      for (const fill of bars) expect(fill, key).toBe(swatch);
    }
  }
  // The categories on both charts: the same colour on each.
  const both = [...day.keys()].filter((k) => k !== REST_KEY && week.has(k));
  expect(both.length).toBeGreaterThan(0);
  for (const key of both) expect(week.get(key)!.swatch, key).toBe(day.get(key)!.swatch);

  // The category's page shows its colour beside its screen time.
  const key = both[0];
  const href = new URL((await page.locator('a[href^="/category?"]').first().getAttribute("href"))!, page.url());
  href.searchParams.set("id", key);
  await page.goto(href.href);
  await expect(page.getByTestId("total-time")).toBeVisible();
  const swatch = page.locator(`.total-time .swatch[data-key="${key}"]`);
  await expect(swatch).toHaveCSS("background-color", rgb(seriesColour(key)));
});

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

test("a report's pie and its legend give each category the dashboard's colour", async ({ page }) => {
  await signInDemo(page);
  await page.locator("summary[aria-label='Open menu']").click();
  await page.getByRole("link", { name: "Reports" }).click();
  await expect(page).toHaveURL(/\/reports\?profileId=\w+&serialNumber=/);
  // The last closed week's report (the demo builds it).
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = new Date(today - (((now.getUTCDay() + 6) % 7) + 7) * 86_400_000);
  await page.goto(`${page.url()}&month=${monday.getUTCMonth() + 1}&year=${monday.getUTCFullYear()}`);
  await page.getByRole("link", { name: /^View/ }).first().click();
  await expect(page).toHaveURL(/\/report\?id=\w+/);

  const swatches = page.locator("section[aria-labelledby='categories-title'] .swatch[data-key]");
  await expect(swatches.first()).toBeAttached();
  const pie = await (await page.request.get((await page.getByRole("img", { name: /^Pie chart/ }).getAttribute("src"))!)).text();
  for (const swatch of await swatches.all()) {
    const key = (await swatch.getAttribute("data-key"))!;
    const name = (await swatch.locator("xpath=..").textContent())!.trim();
    await expect(swatch, key).toHaveCSS("background-color", rgb(seriesColour(key)));
    // The slice of that name: its colour, or the pattern (stripes over its colour) it is filled with.
    const fill =
      new RegExp(
        `<path[^>]*fill="([^"]+)"[^>]*data-testid="arc\\.${name.replace(/&/g, "&amp;").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"`,
      ).exec(pie)?.[1] ?? "";
    const colour = fill.startsWith("url(#")
      ? new RegExp(`<pattern id="${fill.slice(5, -1)}"[^>]*><rect[^>]*fill="([^"]+)"`).exec(pie)?.[1]
      : fill;
    expect([rgb(seriesColour(key)).replace("rgb(", "rgba(").replace(")", ", 1)"), seriesColour(key)], name).toContain(colour);
  }
});
