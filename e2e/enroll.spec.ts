import { expect, test } from "@playwright/test";
import { SimulatedPhone } from "../device-service/simulator/phone";
import { uniqueEmail } from "./auth.testing";
import { openKid, signInDemo } from "./dashboard.testing";

// A new parent adds their kid, shows the enrollment QR code, and a phone (the simulator) enrolls with it.
test("a new parent adds a kid and a phone through the enrollment QR code", async ({ page, baseURL }, info) => {
  const email = uniqueEmail("enroll", info.project.name);
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill("Robin Hale");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("robin-passphrase");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/kids-device/); // sign-up signs the new parent in
  await expect(page.getByText("No devices have been added yet.")).toBeVisible();

  const form = page.getByRole("form", { name: "Add your kid" });
  await form.getByLabel("Kid's name").fill("Ada");
  await form.getByLabel("Birth month").selectOption("May");
  await form.getByLabel("Birth year").fill("1999");
  await form.getByRole("button", { name: "Add kid" }).click();
  const year = new Date().getUTCFullYear();
  await expect(page.getByText(`Birth year must be between 2000 and ${year}.`)).toBeVisible();
  await expect(form.getByLabel("Kid's name")).toHaveValue("Ada"); // nothing lost

  await form.getByLabel("Birth year").fill("2016");
  await form.getByRole("button", { name: "Add kid" }).click();
  await expect(page.getByText("Ada was added. Now add their phone.")).toBeVisible();
  const dialog = page.getByRole("dialog", { name: "Add a phone" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Show QR code" }).click();
  await expect(dialog.getByRole("img", { name: "Enrollment QR code" }).locator("svg")).toBeVisible();
  const link = await dialog.locator("code").textContent();
  const token = new URL(link ?? "").searchParams.get("token");
  expect(token).toBeTruthy();

  const phone = new SimulatedPhone({ baseUrl: baseURL!, serialNumber: `E2E-${info.project.name}-${Date.now()}`, reconnect: false });
  try {
    await phone.enroll(token!);
    await phone.connect();
    // The token works once.
    const again = new SimulatedPhone({ baseUrl: baseURL!, serialNumber: `E2E-again-${Date.now()}`, reconnect: false });
    await expect(again.enroll(token!)).rejects.toThrow(/enrollment refused/);

    await page.goto("/kids-device");
    await expect(page.getByRole("heading", { level: 1, name: "Ada" })).toBeVisible();
    await expect(page.getByText("No devices have been added yet.")).toHaveCount(0);
    await expect(page.getByText("Pixel 8a").first()).toBeVisible();

    // A second kid, from the kid switcher, and its phone.
    await page.locator("details.kid-switch > summary").click();
    await page.getByRole("link", { name: "Add a kid" }).click();
    const add = page.getByRole("dialog", { name: "Add a kid" });
    await add.getByLabel("Kid's name").fill("Ben");
    await add.getByLabel("Birth month").selectOption("June");
    await add.getByLabel("Birth year").fill("2018");
    await add.getByRole("button", { name: "Add kid" }).click();
    await expect(page.getByText("Ben was added. Now add their phone.")).toBeVisible();
    const second = page.getByRole("dialog", { name: "Add a phone" });
    await second.getByRole("button", { name: "Show QR code" }).click();
    const token2 = new URL((await second.locator("code").textContent()) ?? "").searchParams.get("token");
    const phone2 = new SimulatedPhone({ baseUrl: baseURL!, serialNumber: `E2E-ben-${info.project.name}-${Date.now()}`, reconnect: false });
    try {
      await phone2.enroll(token2!);
      await phone2.connect();
      await page.goto(
        new URL(page.url()).pathname + "?" + new URLSearchParams({ profileId: new URL(page.url()).searchParams.get("profileId")! }),
      );
      await expect(page.getByRole("heading", { level: 1, name: "Ben" })).toBeVisible();
      await page.locator("details.kid-switch > summary").click();
      const kids = page.getByRole("navigation", { name: "Kids" });
      await expect(kids.getByRole("link", { name: "Ada · Online now" })).toBeVisible();
      await expect(kids.getByRole("link", { name: "Ben · Online now" })).toBeVisible();
    } finally {
      await phone2.close();
    }
  } finally {
    await phone.close();
  }
});

// A 1×1 PNG, and a text file that pretends to be one: the type is decided by the bytes, not the name.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

test("edit kid: a picture is checked by its bytes, then shown", async ({ page }) => {
  await signInDemo(page);
  await openKid(page, "Leo");
  await page.getByRole("link", { name: "Edit kid" }).click();
  let dialog = page.getByRole("dialog", { name: "Edit kid" });
  await dialog
    .getByLabel("Picture (optional, up to 20 MB)")
    .setInputFiles({ name: "leo.png", mimeType: "image/png", buffer: Buffer.from("not really a picture") });
  await dialog.getByRole("button", { name: "Save" }).click();
  dialog = page.getByRole("dialog", { name: "Edit kid" });
  await expect(dialog.getByText("The picture must be a PNG, JPEG, GIF or WebP image.")).toBeVisible();
  await expect(dialog.getByLabel("Name")).toHaveValue("Leo");

  await dialog.getByLabel("Picture (optional, up to 20 MB)").setInputFiles({ name: "leo.png", mimeType: "image/png", buffer: PNG });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog", { name: "Edit kid" })).toHaveCount(0);
  const avatar = page.locator("img[src^='/resources/kid-picture']");
  await expect(avatar).toHaveCount(1);
  const src = await avatar.getAttribute("src");
  const res = await page.request.get(src!);
  expect(res.status()).toBe(200);
  // Stored re-encoded (issue 52): a JPEG, whatever was chosen.
  expect(res.headers()["content-type"]).toBe("image/jpeg");
  expect(
    Buffer.from(await res.body())
      .subarray(0, 3)
      .toString("hex"),
  ).toBe("ffd8ff");
});
