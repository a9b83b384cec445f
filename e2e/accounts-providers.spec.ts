import type { Page } from "@playwright/test";
import { SignJWT, generateKeyPair } from "jose";
import { E2E_APPLE_CLIENT_ID, E2E_SHOP_URL } from "./mail-env.testing";
import { expect, register, signInWithPassword, signOut, test, uniqueEmail, type OidcControl } from "./mail.testing";

// Google and Apple against a real local OIDC provider (oauth2-mock-server), the hide-Google flag, the wrapper
// hand-off, one-time sign-in tokens and security headers. Each runs in the `js` and the `no-js` project.

const INVALID_EMAIL =
  "We couldn't find this email in our system. If you haven't purchased a device yet, click here to buy one from our website.";

test("Google: a known email signs in; an unknown one shows the invalidEmail banner linking to the shop", async ({ page, oidc }, info) => {
  const email = uniqueEmail("google", info.project.name);
  await register(page, email, "google-passphrase");

  oidc.email = email;
  await page.goto("/login");
  await page.getByRole("link", { name: "Sign in with Google" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  await signOut(page);

  oidc.email = uniqueEmail("stranger", info.project.name);
  await page.getByRole("link", { name: "Sign in with Google" }).click();
  await expect(page).toHaveURL(/\/login\?error=invalidEmail/);
  await expect(page.getByRole("alert").filter({ hasText: "We couldn't find this email" })).toHaveText(INVALID_EMAIL);
  await expect(page.getByRole("link", { name: "click here" })).toHaveAttribute("href", E2E_SHOP_URL);
});

/** Apple's authorize page ends with a form_post back to us (code, id_token, state); `token()` makes the id_token. */
async function appleReturnsWith(_page: Page, oidc: OidcControl, token: (nonce: string) => Promise<string>) {
  oidc.appleIdToken = token;
}

function appleToken(oidc: OidcControl, email: string, opts: { expiresIn?: number; nonce?: (n: string) => string } = {}) {
  return (nonce: string) =>
    oidc.server.issuer.buildToken({
      expiresIn: opts.expiresIn,
      scopesOrTransform: (_h, p) => {
        Object.assign(p, {
          sub: `apple-${email}`,
          aud: E2E_APPLE_CLIENT_ID,
          nonce: opts.nonce ? opts.nonce(nonce) : nonce,
          email,
          email_verified: "true",
        });
      },
    });
}

test("Apple: form_post id_token verified against the provider's keys; forged, expired and wrong-nonce tokens refused", async ({
  page,
  oidc,
}, info) => {
  const email = uniqueEmail("apple", info.project.name);
  await register(page, email, "apple-passphrase");
  const refused = "We couldn't sign you in with that provider. Please try again.";

  // Forged: right claims, signed by a key the provider never published.
  const { privateKey } = await generateKeyPair("RS256");
  await appleReturnsWith(page, oidc, async (nonce) => {
    const kid = [...oidc.server.issuer.keys.toJSON()][0]!.kid;
    return new SignJWT({ email, email_verified: "true", nonce })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(oidc.url)
      .setAudience(E2E_APPLE_CLIENT_ID)
      .setSubject("forged")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);
  });
  await page.goto("/login");
  await page.getByRole("link", { name: "Sign in with Apple" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(refused)).toBeVisible();

  await appleReturnsWith(page, oidc, appleToken(oidc, email, { expiresIn: -120 }));
  await page.getByRole("link", { name: "Sign in with Apple" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(refused)).toBeVisible();

  await appleReturnsWith(page, oidc, appleToken(oidc, email, { nonce: () => "someone-elses-nonce" }));
  await page.getByRole("link", { name: "Sign in with Apple" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(refused)).toBeVisible();

  await appleReturnsWith(page, oidc, appleToken(oidc, email));
  await page.getByRole("link", { name: "Sign in with Apple" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  await signOut(page);

  await appleReturnsWith(page, oidc, appleToken(oidc, uniqueEmail("apple-stranger", info.project.name)));
  await page.getByRole("link", { name: "Sign in with Apple" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(INVALID_EMAIL)).toBeVisible();
});

test("hideGBtn: the Google button hides with ?hideGBtn=true and sign-out returns to /login?hideGBtn=true", async ({
  browser,
  page,
}, info) => {
  await page.goto("/login");
  await expect(page.getByRole("link", { name: "Sign in with Google" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in with Apple" })).toBeVisible();

  const email = uniqueEmail("hidegbtn", info.project.name);
  await register(page, email, "hide-passphrase");
  await page.goto("/login?hideGBtn=true");
  await expect(page.getByRole("link", { name: "Sign in with Google" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Sign in with Apple" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("hide-passphrase");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/kids-device/);
  await page.goto("/kids-device?modal=logout");
  await page.getByRole("dialog").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login\?hideGBtn=true$/);
  await expect(page.getByRole("link", { name: "Sign in with Google" })).toHaveCount(0);

  // The stored flag: this browser keeps hiding Google on a plain /login; another browser does not.
  await page.goto("/login");
  await expect(page.getByRole("link", { name: "Sign in with Google" })).toHaveCount(0);
  const fresh = await browser.newContext({ javaScriptEnabled: info.project.name === "js" });
  const freshPage = await fresh.newPage();
  await freshPage.goto("/login");
  await expect(freshPage.getByRole("link", { name: "Sign in with Google" })).toBeVisible();
  await fresh.close();
});

test("mobile wrapper: the session token is handed over after sign-in and Bearer requests work on every page", async ({
  page,
  playwright,
  baseURL,
}, info) => {
  const handed: string[] = [];
  await page.exposeBinding("__captureToken", (_source, t: string) => {
    handed.push(t);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { Android: { saveToken(t: string): void }; __captureToken(t: string): void };
    w.Android = { saveToken: (t: string) => w.__captureToken(t) };
  });
  const email = uniqueEmail("wrapper", info.project.name);
  await register(page, email, "wrapper-passphrase");
  await signInWithPassword(page, email, "wrapper-passphrase");
  await expect(page).toHaveURL(/\/kids-device/);

  let token: string;
  if (info.project.name === "js") {
    await expect.poll(() => handed.length).toBe(1);
    token = handed[0]!;
  } else {
    expect(handed).toHaveLength(0); // no JavaScript, no wrapper: the token never leaves the httpOnly cookie
    const cookies = await page.context().cookies();
    token = decodeURIComponent(cookies.find((c) => c.name === "kp_session")!.value).replace(/^"|"$/g, "");
    token = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as string;
  }
  expect(token.length).toBeGreaterThan(30);

  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  for (const path of ["/kids-device", "/account", "/change-password"]) {
    const res = await api.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
  }
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get("/account", { maxRedirects: 0 })).status()).toBe(302);
  await api.dispose();
  await anonymous.dispose();
});

test("direct sign-in with ?token= works once and is never a session id", async ({ page, browser }, info) => {
  const email = uniqueEmail("token", info.project.name);
  await register(page, email, "token-passphrase");
  await signInWithPassword(page, email, "token-passphrase");
  await expect(page).toHaveURL(/\/kids-device/);
  const res = await page.request.post("/users/signin-token");
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { token: string; url: string } };

  const other = await browser.newContext({ javaScriptEnabled: info.project.name === "js" });
  const otherPage = await other.newPage();
  // The link only names the account; Continue (a POST) signs in.
  await otherPage.goto(data.url);
  await expect(otherPage.getByText(`the Kids Portal account of ${email}`)).toBeVisible();
  await otherPage.getByRole("button", { name: "Continue" }).click();
  await expect(otherPage).toHaveURL(/\/kids-device/);
  await other.close();

  const third = await browser.newContext({ javaScriptEnabled: info.project.name === "js" });
  const thirdPage = await third.newPage();
  await thirdPage.goto(data.url);
  await expect(thirdPage.getByText("This sign-in link has expired or was already used. Please sign in.")).toBeVisible();
  // A session token in the URL is not accepted either.
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "kp_session")!.value;
  await thirdPage.goto(`/login?token=${encodeURIComponent(session)}`);
  await expect(thirdPage.getByText("This sign-in link has expired or was already used. Please sign in.")).toBeVisible();
  await third.close();
});

test("security headers are on every page", async ({ page }, info) => {
  const check = (path: string, headers: Record<string, string>) => {
    const csp = headers["content-security-policy"] ?? "";
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).toContain("base-uri 'none'");
    expect(csp, path).toContain("frame-ancestors 'self'");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBeTruthy();
    expect(headers["strict-transport-security"], path).toMatch(/max-age=\d+/); // the e2e server runs in production mode
  };
  const publicPages = [
    "/login",
    "/registration",
    "/forget-password",
    "/reset-password",
    "/password/set",
    "/verify-otp?email=a%40b.c",
    "/no-such-page",
  ];
  for (const path of publicPages) {
    const res = await page.goto(path);
    check(path, res!.headers());
  }
  const email = uniqueEmail("headers", info.project.name);
  await register(page, email, "headers-passphrase");
  await signInWithPassword(page, email, "headers-passphrase");
  await expect(page).toHaveURL(/\/kids-device/);
  for (const path of ["/kids-device", "/account", "/change-password", "/parent-profile"]) {
    const res = await page.goto(path);
    check(path, res!.headers());
  }
  // The dev mailbox is not served by a production server.
  expect((await page.goto("/dev/mailbox"))!.status()).toBe(404);
});
