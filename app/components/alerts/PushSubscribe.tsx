import { Form, useLocation, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { SubmitButton } from "~/components/forms";
import { formatMediumDateTime } from "#core/format";
import { useHydrated, useIsSubmitting } from "~/utils/hooks";

/**
 * "Notifications" on this browser (issue 55, Web Push): with JavaScript, a button that registers the service worker
 * (public/sw.js), asks the browser's permission, subscribes with the portal's VAPID key and stores the subscription
 * (app/routes/resources.push-subscription.tsx); the state it shows: on, off, blocked by the browser, not supported.
 * Without JavaScript it says notifications need it. The list of browsers that get notifications works either way.
 */

const RESOURCE = "/resources/push-subscription";

export interface PushBrowserView {
  id: string;
  label: string;
  createdAt: string;
  lastSuccessAt: string | null;
}

type State = "checking" | "unsupported" | "blocked" | "off" | "on";

const STATE_TEXT: Record<State, string> = {
  checking: "Checking this browser…",
  unsupported: "This browser cannot show notifications from Kids Portal.",
  blocked: "Notifications are blocked for Kids Portal in this browser's settings. Allow them there, then reload this page.",
  off: "Notifications are off on this browser.",
  on: "Notifications are on for this browser.",
};

function supported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(b64url: string): Uint8Array {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function post(fields: Record<string, string>): Promise<{ ok: boolean; message: string }> {
  const res = await fetch(RESOURCE, { method: "POST", body: new URLSearchParams(fields), headers: { Accept: "application/json" } });
  const answer = (await res.json().catch(() => null)) as { ok?: boolean; message?: string } | null;
  return { ok: res.ok && Boolean(answer?.ok), message: answer?.message ?? "Something went wrong. Please try again." };
}

/** "denied" when the browser's settings block our notifications. The Permissions API first: some browsers (headless
 * Chromium) report Notification.permission "denied" while the permission is in fact granted or still to be asked. */
async function notificationPermission(): Promise<PermissionState | NotificationPermission> {
  try {
    if (navigator.permissions?.query) return (await navigator.permissions.query({ name: "notifications" })).state;
  } catch {
    /* a browser that does not know the name: Notification.permission below */
  }
  return Notification.permission;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return (await reg?.pushManager.getSubscription()) ?? null;
}

export function PushSubscribe({ publicKey, browsers }: { publicKey: string; browsers: PushBrowserView[] }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const location = useLocation();
  const [state, setState] = useState<State>("checking");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const removing = useIsSubmitting({ intent: "remove" });

  const check = useCallback(async () => {
    if (!supported()) return setState("unsupported");
    if ((await notificationPermission()) === "denied") return setState("blocked");
    const sub = await currentSubscription().catch(() => null);
    if (!sub) return setState("off");
    const res = await fetch(`${RESOURCE}?endpoint=${encodeURIComponent(sub.endpoint)}`, { headers: { Accept: "application/json" } });
    const known = res.ok ? ((await res.json()) as { on: boolean }).on : false;
    setState(known ? "on" : "off");
  }, []);

  // Again after the list changes: this browser may have been the one removed from it.
  useEffect(() => {
    if (hydrated) void check().catch(() => setState("off"));
  }, [hydrated, check, browsers]);

  async function enable() {
    setBusy(true);
    setMessage(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission === "denied") return setState("blocked");
      if (permission !== "granted") {
        setMessage({ error: true, text: "Notifications were not allowed. Press the button again and choose Allow." });
        return;
      }
      await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      const reg = await navigator.serviceWorker.ready;
      const options = { userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) };
      let sub: PushSubscription;
      try {
        sub = await reg.pushManager.subscribe(options);
      } catch (err) {
        // Subscribed before with another key (the portal's keys changed): start again with ours.
        const old = await reg.pushManager.getSubscription();
        if (!old) throw err;
        await old.unsubscribe();
        sub = await reg.pushManager.subscribe(options);
      }
      const json = sub.toJSON();
      const answer = await post({
        intent: "subscribe",
        endpoint: json.endpoint ?? "",
        p256dh: json.keys?.p256dh ?? "",
        auth: json.keys?.auth ?? "",
      });
      setMessage({ error: !answer.ok, text: answer.message });
      setState(answer.ok ? "on" : "off");
      if (answer.ok) revalidator.revalidate();
    } catch {
      setMessage({ error: true, text: "This browser could not turn notifications on. Please try again." });
      await check().catch(() => setState("off"));
    } finally {
      setBusy(false);
    }
  }

  async function disable() {
    setBusy(true);
    setMessage(null);
    try {
      const sub = await currentSubscription();
      if (sub) {
        const answer = await post({ intent: "unsubscribe", endpoint: sub.endpoint });
        if (!answer.ok) return setMessage({ error: true, text: answer.message });
        await sub.unsubscribe();
      }
      setState("off");
      setMessage({ error: false, text: "Notifications are off for this browser." });
      revalidator.revalidate();
    } catch {
      setMessage({ error: true, text: "This browser could not turn notifications off. Please try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack" data-testid="push-subscribe">
      {hydrated ? (
        <>
          <p role="status" data-state={state}>
            {STATE_TEXT[state]}
          </p>
          {state === "off" || state === "on" || state === "checking" ? (
            <button
              type="button"
              className={state === "on" ? "btn btn-outline" : "btn btn-primary"}
              disabled={busy || state === "checking"}
              aria-busy={busy}
              onClick={() => void (state === "on" ? disable() : enable())}
            >
              {busy ? <span className="spinner" aria-hidden="true" /> : null}
              <span>{state === "on" ? "Turn off notifications on this browser" : "Enable notifications on this browser"}</span>
            </button>
          ) : null}
          {message ? (
            <p className={message.error ? "banner banner-error" : "banner banner-success"} role={message.error ? "alert" : "status"}>
              {message.text}
            </p>
          ) : null}
        </>
      ) : (
        <p>Notifications on this browser need JavaScript: turn it on for this site, then enable them here.</p>
      )}
      <h3>Browsers that get notifications</h3>
      {browsers.length === 0 ? (
        <p className="muted">No browser gets notifications yet.</p>
      ) : (
        <ul className="stack" aria-label="Browsers that get notifications">
          {browsers.map((b) => (
            <li key={b.id} className="row">
              <span>
                {b.label} <span className="muted">· since {formatMediumDateTime(b.createdAt)}</span>
                {b.lastSuccessAt ? <span className="muted"> · last alert {formatMediumDateTime(b.lastSuccessAt)}</span> : null}
              </span>
              <Form method="post" action={RESOURCE}>
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={b.id} />
                <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
                <SubmitButton busy={removing} className="btn btn-outline" aria-label={`Stop notifications in ${b.label}`}>
                  Stop notifications
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
