import { codeIn, expect, linkIn, register, signInWithPassword, signOut, test, uniqueEmail } from "./mail.testing";

// Journeys that read the real mails from a local SMTP server. Each runs in the `js` and the `no-js` project.

test("register → verify by the emailed link → signed in; the link works once, a tampered one is refused", async ({
  page,
  mailbox,
}, info) => {
  const email = uniqueEmail("verify", info.project.name);
  await register(page, email, "first-passphrase-1");
  await expect(page).toHaveURL(/\/login/); // signed in by sign-up, then signed out by the helper

  const mail = await mailbox.waitFor(email, "Verify your email address");
  const link = linkIn(mail);
  expect(link).toMatch(/\/login\?iv=[^&]+&encryptedData=/);
  // Opening the link signs nobody in by itself (no login CSRF): it names the account and asks to continue.
  await page.goto(link);
  await expect(page.getByText(`the Kids Portal account of ${email}`)).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  await expect(page.getByText("No devices have been added yet.")).toBeVisible();

  await signOut(page);
  await page.goto(link);
  await expect(page.getByText("This link has already been used. Please request a new one.")).toBeVisible();

  const url = new URL(link);
  const data = url.searchParams.get("encryptedData")!;
  url.searchParams.set("encryptedData", (data[0] === "A" ? "B" : "A") + data.slice(1));
  await page.goto(url.toString());
  await expect(page.getByText("This link is invalid. Please request a new one.")).toBeVisible();

  await signInWithPassword(page, email, "first-passphrase-1");
  await expect(page).toHaveURL(/\/kids-device/);
});

test("forgot → reset → the new password signs in, the old one is refused, other sessions end", async ({ page, browser, mailbox }, info) => {
  const email = uniqueEmail("reset", info.project.name);
  await register(page, email, "old-passphrase-1");

  // A second browser signed in before the reset: it must be signed out by it.
  const other = await browser.newContext({ javaScriptEnabled: info.project.name === "js" });
  const otherPage = await other.newPage();
  await signInWithPassword(otherPage, email, "old-passphrase-1");
  await expect(otherPage).toHaveURL(/\/kids-device/);

  // The same answer for an unknown address and for a real one.
  await page.goto("/forget-password");
  await page.getByLabel("Email").fill(uniqueEmail("nobody", info.project.name));
  await page.getByRole("button", { name: "Send" }).click();
  const answer = "If this email is registered with us, we've sent a link to reset your password. Please check your inbox.";
  await expect(page.getByText(answer)).toBeVisible();
  await page.goto("/forget-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText(answer)).toBeVisible();

  const link = linkIn(await mailbox.waitFor(email, "Reset your password"));
  expect(link).toMatch(/\/reset-password\?iv=[^&]+&encryptedData=/);
  await page.goto(link);
  await page.getByLabel("Password", { exact: true }).fill("new-passphrase-2");
  await page.getByLabel("Confirm password", { exact: true }).fill("does-not-match");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Password and confirm password do not match.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("new-passphrase-2");
  await page.getByLabel("Confirm password", { exact: true }).fill("new-passphrase-2");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("Your password has been changed. Please sign in with your new password.")).toBeVisible();

  await otherPage.goto("/kids-device");
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();

  await page.goto(link);
  await expect(page.getByText("This link has already been used. Please request a new one.")).toBeVisible();

  await signInWithPassword(page, email, "old-passphrase-1");
  await expect(page.getByText("Invalid email or password.")).toBeVisible();
  await signInWithPassword(page, email, "new-passphrase-2");
  await expect(page).toHaveURL(/\/kids-device/);
});

test("two-step on → emailed code → dashboard; 5 wrong codes void the code", async ({ page, mailbox }, info) => {
  const email = uniqueEmail("otp", info.project.name);
  await register(page, email, "otp-passphrase-1");
  await signInWithPassword(page, email, "otp-passphrase-1");
  await expect(page).toHaveURL(/\/kids-device/);

  await page.goto("/account");
  await page.getByRole("button", { name: "Turn on two-step verification" }).click();
  await expect(page.getByText("Two-step verification is on.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn off two-step verification" })).toBeVisible();
  await signOut(page);

  let before = mailbox.count(email);
  await signInWithPassword(page, email, "otp-passphrase-1");
  await expect(page).toHaveURL(`/verify-otp?email=${encodeURIComponent(email)}`);
  await expect(page.getByText(`We sent a 4-digit code to ${email}.`)).toBeVisible();
  const code = codeIn(await mailbox.waitFor(email, "Your sign-in code", { after: before }));
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  await signOut(page);

  before = mailbox.count(email);
  await signInWithPassword(page, email, "otp-passphrase-1");
  await expect(page).toHaveURL(/\/verify-otp\?email=/);
  const second = codeIn(await mailbox.waitFor(email, "Your sign-in code", { after: before }));
  const wrong = String((Number(second) + 1) % 10_000).padStart(4, "0");
  for (let i = 1; i <= 4; i++) {
    await page.getByLabel("Code").fill(wrong);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText(`The code is incorrect. You have ${5 - i} ${5 - i === 1 ? "try" : "tries"} left.`)).toBeVisible();
  }
  await page.getByLabel("Code").fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  const voided = "Too many wrong codes. This code is no longer valid. Please sign in again to get a new code.";
  await expect(page.getByText(voided)).toBeVisible();
  // Even the right code no longer works.
  await page.getByLabel("Code").fill(second);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(voided)).toBeVisible();
  await page.goto("/kids-device");
  await expect(page).toHaveURL(/\/login/);
});

test("turning two-step off asks for the password: none or a wrong one is refused, the right one turns it off", async ({ page }, info) => {
  const email = uniqueEmail("otp-off", info.project.name);
  await register(page, email, "otp-off-passphrase-1");
  await signInWithPassword(page, email, "otp-off-passphrase-1");
  await expect(page).toHaveURL(/\/kids-device/);
  await page.goto("/account");
  await page.getByRole("button", { name: "Turn on two-step verification" }).click();
  await expect(page.getByText("Two-step verification is on.")).toBeVisible();

  const turnOff = page.getByRole("button", { name: "Turn off two-step verification" });
  await turnOff.click();
  await expect(page.getByText("Please enter your password.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("not-my-passphrase");
  await turnOff.click();
  await expect(page.getByText("The password is incorrect.")).toBeVisible();
  await page.goto("/account");
  await expect(page.getByText(`On: when you sign in, we email a 4-digit code to ${email}.`)).toBeVisible();

  await page.getByLabel("Password", { exact: true }).fill("otp-off-passphrase-1");
  await turnOff.click();
  await expect(page.getByText("Two-step verification is off.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn on two-step verification" })).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
});

test("sessions page lists this device and signs out everywhere", async ({ page, browser }, info) => {
  const email = uniqueEmail("sessions", info.project.name);
  await register(page, email, "sessions-passphrase");
  const other = await browser.newContext({ javaScriptEnabled: info.project.name === "js" });
  const otherPage = await other.newPage();
  await signInWithPassword(otherPage, email, "sessions-passphrase");
  await expect(otherPage).toHaveURL(/\/kids-device/);
  await signInWithPassword(page, email, "sessions-passphrase");
  await expect(page).toHaveURL(/\/kids-device/);

  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Where you're signed in" })).toBeVisible();
  await expect(page.getByText("(this device)")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Sign out", exact: true })).toHaveCount(1);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("You have been signed out on every device.")).toBeVisible();
  await otherPage.goto("/kids-device");
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();
});
