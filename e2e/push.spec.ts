import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./auth.testing";
import { expectToast } from "./dashboard.testing";

// Web Push on /alert-settings (issue 55): "Enable notifications on this browser" registers the service worker, asks the
// browser's permission, subscribes with the portal's VAPID key and stores the subscription. Playwright's Chromium
// reaches no real push service, so PushManager.subscribe is replaced in the page by one that records the key it was
// given and returns a fixed subscription (valid P-256 keys, an FCM-shaped endpoint that nothing is ever sent to).

const SUBSCRIPTION = {
  endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${Date.now()}-${Math.floor(Math.random() * 1e9)}`,
  keys: {
    // RFC 8291 Appendix A's user-agent key and auth secret: a real P-256 point.
    p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
    auth: "BTBZMqHH6r4Tts7J_aSIgg",
  },
};

/** PushManager in the page: subscribe (slowed, so the busy state shows) records the applicationServerKey and answers SUBSCRIPTION. */
async function stubPushManager(page: Page, o: { denied?: boolean } = {}) {
  await page.addInitScript(
    ({ sub, denied }) => {
      const KEY = "e2e-push-subscription";
      const make = () => ({
        endpoint: sub.endpoint,
        expirationTime: null,
        toJSON: () => sub,
        unsubscribe: async () => {
          localStorage.removeItem(KEY);
          return true;
        },
      });
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = new Uint8Array(options!.applicationServerKey as ArrayBuffer);
        localStorage.setItem(
          "e2e-push-key",
          btoa(String.fromCharCode(...key))
            .replace(/\+/g, "-")
            .replace(/\//g, "_")
            .replace(/=+$/, ""),
        );
        await new Promise((r) => setTimeout(r, 800));
        localStorage.setItem(KEY, "1");
        return make() as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async function () {
        return (localStorage.getItem(KEY) ? make() : null) as unknown as PushSubscription | null;
      };
      if (denied) {
        const query = navigator.permissions.query.bind(navigator.permissions);
        navigator.permissions.query = async (d: PermissionDescriptor) =>
          d.name === "notifications" ? ({ state: "denied" } as PermissionStatus) : query(d);
      }
    },
    { sub: SUBSCRIPTION, denied: Boolean(o.denied) },
  );
}

test("Notifications on /alert-settings: with JavaScript enable → stored and listed, kept on reload, turned off; blocked says so; without it, says it needs JavaScript", async ({
  page,
  context,
  baseURL,
}, info) => {
  await signIn(page);
  if (info.project.name !== "js") {
    await page.goto("/alert-settings");
    await expect(page.getByRole("heading", { level: 2, name: "Notifications" })).toBeVisible();
    await expect(
      page.getByText("Notifications on this browser need JavaScript: turn it on for this site, then enable them here."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Enable notifications on this browser" })).toHaveCount(0);
    await expect(page.getByText("No browser gets notifications yet.")).toBeVisible();
    return;
  }
  await context.grantPermissions(["notifications"], { origin: baseURL! });
  await stubPushManager(page);
  await page.goto("/alert-settings");
  const card = page.getByTestId("push-subscribe");
  await expect(page.getByRole("heading", { level: 2, name: "Notifications" })).toBeVisible();
  await expect(card.getByText("Notifications are off on this browser.")).toBeVisible();
  await expect(card.getByText("No browser gets notifications yet.")).toBeVisible();
  await expect(page.getByText("need JavaScript")).toHaveCount(0);

  const enable = page.getByRole("button", { name: "Enable notifications on this browser" });
  await enable.click();
  await expect(enable).toBeDisabled();
  await expect(card.getByText("Notifications are on for this browser.").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /^Stop notifications in Chrome on / })).toBeVisible();

  // The browser was handed the portal's VAPID key, and the service worker is this portal's /sw.js.
  const { publicKey } = (await (await page.request.get("/resources/push-subscription")).json()) as { publicKey: string };
  expect(await page.evaluate(() => localStorage.getItem("e2e-push-key"))).toBe(publicKey);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL)).toMatch(/\/sw\.js$/);
  const sw = await page.request.get("/sw.js");
  expect(sw.ok()).toBe(true);
  expect(await sw.text()).toContain("notificationclick");

  await page.reload();
  await expect(card.getByText("Notifications are on for this browser.")).toBeVisible();
  await page.getByRole("button", { name: "Turn off notifications on this browser" }).click();
  await expect(card.getByText("Notifications are off for this browser.").first()).toBeVisible();
  await expect(card.getByText("No browser gets notifications yet.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Enable notifications on this browser" })).toBeEnabled();

  // A browser whose settings block notifications: said so, no button.
  const blocked = await context.newPage();
  await stubPushManager(blocked, { denied: true });
  await blocked.goto("/alert-settings");
  await expect(
    blocked.getByText("Notifications are blocked for Kids Portal in this browser's settings. Allow them there, then reload this page."),
  ).toBeVisible();
  await expect(blocked.getByRole("button", { name: "Enable notifications on this browser" })).toHaveCount(0);
});

test("a browser in the list is stopped from the list (a plain form, with or without JavaScript)", async ({ page }, info) => {
  await signIn(page);
  // A browser turned on earlier: stored as the page's own request would store it.
  const endpoint = `${SUBSCRIPTION.endpoint}-${info.project.name}`;
  const stored = await page.request.post("/resources/push-subscription", { form: { intent: "subscribe", endpoint, ...SUBSCRIPTION.keys } });
  expect(await stored.json()).toEqual({ ok: true, message: "Notifications are on for this browser." });
  await page.goto("/alert-settings");
  await page.getByRole("button", { name: /^Stop notifications in / }).click();
  await expect(page).toHaveURL(/\/alert-settings$/);
  await expectToast(page, "success", "That browser will no longer get notifications.");
  await expect(page.getByText("No browser gets notifications yet.")).toBeVisible();
});
