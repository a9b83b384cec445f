/* Kids Portal's service worker: Web Push alerts (issue 55). Registered only when a parent presses "Enable
 * notifications on this browser" (app/components/alerts/PushSubscribe.tsx). A message is the alert's
 * {title, body, url} (jobs/alerts/push/sender.ts); a click opens that page of the portal, or focuses a tab showing it. */
/* global self, clients, URL */

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** A path of this portal, never another site: anything else opens the home page. */
function portalUrl(url) {
  try {
    const u = new URL(typeof url === "string" ? url : "/", self.location.origin);
    return u.origin === self.location.origin ? u.href : self.location.origin + "/";
  } catch {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = {};
  }
  const title = typeof alert.title === "string" && alert.title ? alert.title : "Kids Portal";
  const body = typeof alert.body === "string" ? alert.body : "";
  event.waitUntil(self.registration.showNotification(title, { body, icon: "/favicon.svg", data: { url: portalUrl(alert.url) } }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = portalUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
      for (const tab of tabs) if (tab.url === target && "focus" in tab) return tab.focus();
      return clients.openWindow(target);
    }),
  );
});
