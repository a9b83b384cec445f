import { expect, test, type Page } from "@playwright/test";
import { openKid, signInDemo } from "./dashboard.testing";

// Each journey runs twice: in the `js` and the `no-js` project, against the demo family (Mia's phone is in London).

/** No map tile can load (as on a machine without internet): the tile host answers nothing. */
async function blockTiles(page: Page) {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
}

/** The map page's address as the dashboard links it ("Open map"), from the dashboard itself. */
async function mapHref(page: Page): Promise<string> {
  return (await page.getByRole("link", { name: "Open map" }).getAttribute("href"))!;
}

/** How many countries Leaflet's outline layer draws in view. */
function drawnOutlines(page: Page): Promise<number> {
  return page
    .locator(".leaflet-outlines-pane path")
    .evaluateAll((paths) => paths.filter((p) => (p.getAttribute("d") ?? "").length > 40).length);
}

test("the map shows country borders and coasts and the pin where tiles cannot load", async ({ page }, info) => {
  const js = info.project.name === "js";
  await blockTiles(page);
  await signInDemo(page);
  const mia = await openKid(page, "Mia");
  const href = await mapHref(page);
  expect(href).toContain(`profileId=${mia.profileId}`);
  await page.goto(href);
  await expect(page.getByRole("heading", { level: 1, name: "Map of Mia's last location" })).toBeAttached();
  await expect(page.getByText("United Kingdom")).toBeVisible();

  const stage = page.locator(".map-stage");
  const box = (await stage.boundingBox())!;
  if (!js) {
    // The base map drawn on the server: land outlines around the pin, named for a screen reader.
    const map = page.getByRole("img", {
      name: /^Map of Mia's last location: country borders and coasts around United Kingdom, the pin at 51\.5\d+, -0\.\d+$/,
    });
    await expect(map).toBeVisible();
    expect(((await map.locator("path").getAttribute("d")) ?? "").length).toBeGreaterThan(1000);
    await expect(page.getByTestId("map-why")).toHaveText("JavaScript is off in this browser: the map shows country borders and coasts.");
    // The pin in the middle of the map, where the SVG puts the point.
    const pin = (await page.getByTestId("base-map-pin").boundingBox())!;
    expect(Math.abs(pin.x + pin.width / 2 - (box.x + box.width / 2))).toBeLessThan(2);
    expect(Math.abs(pin.y + pin.height / 2 - (box.y + box.height / 2))).toBeLessThan(2);
  } else {
    // Leaflet: no tile loaded, so the outlines (under the tiles' pane) show, zoomed out to where they mean something.
    const region = page.getByRole("region", { name: /^Map of Mia's last location, centred on 51\.5\d+, -0\.\d+$/ });
    await expect(region).toHaveAttribute("data-state", "no-tiles");
    await expect(
      page.getByText("The map tiles could not be loaded from OpenStreetMap: the map shows country borders and coasts."),
    ).toBeVisible();
    // The United Kingdom, France, Ireland… drawn (Leaflet leaves a country outside the view as "M0 0").
    await expect.poll(() => drawnOutlines(page)).toBeGreaterThan(2);
    await expect(region.locator(".leaflet-outlines-pane svg")).toBeVisible();
    const pin = region.locator(".leaflet-overlay-pane path.leaflet-interactive").last();
    await expect(pin).toBeVisible();
    const p = (await pin.boundingBox())!;
    expect(Math.abs(p.x + p.width / 2 - (box.x + box.width / 2))).toBeLessThan(3);
    expect(Math.abs(p.y + p.height / 2 - (box.y + box.height / 2))).toBeLessThan(3);
    // The outlines come from the product, kept by the browser for a year.
    const res = await page.request.get(new URL(`/resources/map-outlines?lat=51&long=-1`, page.url()).href);
    expect(res.headers()["cache-control"]).toBe("private, max-age=31536000, immutable");
    expect(((await res.json()) as { features: { properties: { name: string } }[] }).features.map((f) => f.properties.name)).toContain(
      "France",
    );
  }
});

test("the dashboard's framed map draws the base map alone (the card shows the place as text)", async ({ page }, info) => {
  await blockTiles(page);
  await signInDemo(page);
  await openKid(page, "Mia");
  await page.goto(`${await mapHref(page)}&embed=1`);
  await expect(page.getByTestId("base-map-pin")).toBeVisible();
  await expect(page.getByText("View on OpenStreetMap")).toHaveCount(0);
  await expect(page.getByTestId("map-why")).toBeVisible();
  if (info.project.name === "js") await expect.poll(() => drawnOutlines(page)).toBeGreaterThan(2);
  else await expect(page.getByRole("img", { name: /^Map of Mia's last location/ })).toBeVisible();
});
