import { expect, test } from "@playwright/test";
import { expectToast, eventually, openKid, signInDemo } from "./dashboard.testing";
import { movePhone } from "./phone-control.testing";

// Issue 55 items 1, 2 and 5, in the `js` and the `no-js` project: a parent adds a place on Mia's map page, Mia's
// simulated phone walks into it, and the page shows her there, the arrival (from place_events) and the day's trail.

test("add a place; the simulated phone walks in; the place shows the kid there and the arrival, and the alert centre has it", async ({
  page,
}, info) => {
  const js = info.project.name === "js";
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  // Each project its own place, away from the demo phone's spot (the two projects share one server).
  const name = `Park ${info.project.name}`;
  const centre = js ? { latitude: 51.52, longitude: -0.1 } : { latitude: 51.53, longitude: -0.09 };
  await signInDemo(page);
  const mia = await openKid(page, "Mia");
  await page.goto((await page.getByRole("link", { name: "Open map" }).getAttribute("href"))!);
  await expect(page.getByRole("heading", { level: 2, name: "Places" })).toBeVisible();
  const form = page.getByRole("form", { name: "Add a place" });

  if (js) {
    // A click on the map fills the centre's coordinates.
    await expect(page.locator(".map-canvas")).not.toHaveAttribute("data-state", "loading");
    await page.locator(".map-canvas").click({ position: { x: 200, y: 100 } });
    await expect(form.getByLabel("Latitude")).not.toHaveValue("");
    await expect(form.getByLabel("Longitude")).not.toHaveValue("");
  }

  // A radius out of bounds: a message under the field, what was typed kept, nothing stored.
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/^Radius in metres/).fill("20");
  await form.getByLabel("Latitude").fill(String(centre.latitude));
  await form.getByLabel("Longitude").fill(String(centre.longitude));
  await form.getByRole("button", { name: "Add place" }).click();
  await expect(page.getByText("The radius is a whole number of metres from 50 to 5,000.")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveValue(name);
  await expect(page.getByTestId(`place-${name}`)).toHaveCount(0);

  await form.getByLabel(/^Radius in metres/).fill("200");
  await form.getByRole("button", { name: "Add place" }).click();
  await expectToast(page, "success", `Added ${name}.`);
  const row = page.getByTestId(`place-${name}`);
  await expect(row).toContainText("Mia's place · 200 m around");
  await expect(row).toContainText("Mia is not here.");

  // The phone reports from 2 km away (outside, no event), then walks in to the centre.
  await movePhone(mia.serialNumber, [
    { latitude: centre.latitude + 0.018, longitude: centre.longitude },
    { latitude: centre.latitude + 0.009, longitude: centre.longitude },
    { latitude: centre.latitude + 0.0005, longitude: centre.longitude },
    { latitude: centre.latitude, longitude: centre.longitude },
  ]);
  await eventually(
    page,
    false,
    async () => {
      await expect(row).toContainText(/Mia is here \(arrived \d\d:\d\d\)\./, { timeout: 1_000 });
    },
    20_000,
  );
  // The arrival, once, from place_events; the trail lists the walk with its times.
  await expect(page.getByTestId("place-events").getByText(`Arrived at ${name}`)).toHaveCount(1);
  const trail = page.getByTestId("trail");
  await expect(trail.getByText(`${centre.latitude.toFixed(5)}, ${centre.longitude.toFixed(5)}`).last()).toBeVisible();
  if (js) {
    // Leaflet draws the places as circles and the day's trail as a line (zoomed out to the outlines: tiny, but there).
    await expect(page.locator(".leaflet-overlay-pane path.map-place")).not.toHaveCount(0);
    await expect(page.locator(".leaflet-overlay-pane path.map-trail")).toHaveCount(1);
  }

  // The day picker: the day before (in the URL), then back to today with the form.
  const today = await page.getByLabel("Day", { exact: true }).inputValue();
  await page.getByRole("link", { name: "Previous day" }).click();
  await expect(page.getByRole("heading", { level: 2, name: /^Trail of \d{4}-\d\d-\d\d$/ })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("day")).not.toBe(today);
  await expect(page.getByTestId("place-events")).toHaveCount(0);
  await page.getByLabel("Day", { exact: true }).fill(today);
  await page.getByRole("button", { name: "Show day" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Today's trail" })).toBeVisible();
  await expect(page.getByTestId("place-events").getByText(`Arrived at ${name}`)).toHaveCount(1);
  // A day out of the 30 kept (a hand-made address): a message, today's trail shown.
  const far = new URL(page.url());
  far.searchParams.set("day", "2020-01-01");
  await page.goto(far.pathname + far.search);
  await expect(page.getByText(/^Choose a day from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: the trail is kept 30 days\.$/)).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Today's trail" })).toBeVisible();

  // Delete it (the list's own button, named by the place).
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  await expectToast(page, "success", `Deleted ${name}.`);
  await expect(page.getByTestId(`place-${name}`)).toHaveCount(0);

  // The arrival reached the parent's alert centre (the place is gone, the alert stays).
  await page.goto("/alerts");
  await expect(page.getByText(`Mia arrived at ${name}`, { exact: true })).toHaveCount(1);

  // The phone goes back to the demo's spot: the journeys after this one (the other project's too) read it there.
  await movePhone(mia.serialNumber, [{ latitude: 51.5014, longitude: -0.1419 }]);
});
