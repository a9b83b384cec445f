import { importPKCS8, SignJWT } from "jose";
import type { LogFn } from "../context";

export interface PushMessage {
  commandId: string;
  type: string;
  /** Small data map: FCM data values are strings. The phone fetches the full command over the socket. */
  data: Record<string, string>;
}

/** Wakes a phone that is not connected. "sent" means the push service accepted it. */
export interface PushTransport {
  readonly name: string;
  send(target: { deviceId: string; fcmToken: string | null }, msg: PushMessage): Promise<"sent" | "skipped">;
}

/** The default: no push service configured, so commands wait in the outbox for the socket. */
export function createLoggingTransport(log: LogFn): PushTransport {
  return {
    name: "log",
    async send(target, msg) {
      log("info", "push (logging transport)", { deviceId: target.deviceId, commandId: msg.commandId, type: msg.type });
      return "skipped";
    },
  };
}

export interface FcmOptions {
  projectId: string;
  clientEmail: string;
  /** PEM (PKCS#8); "\n" escapes are accepted. */
  privateKey: string;
  /** Defaults to Google's; tests point these at a local HTTP double. */
  apiBase?: string;
  tokenUri?: string;
  fetchImpl?: typeof fetch;
}

/**
 * FCM HTTP v1: a service-account JWT is exchanged for an OAuth access token (cached until shortly before it
 * expires), then `POST /v1/projects/{project}/messages:send` with a high-priority data message.
 */
export function createFcmTransport(o: FcmOptions, log: LogFn): PushTransport {
  const apiBase = (o.apiBase ?? "https://fcm.googleapis.com").replace(/\/$/, "");
  const tokenUri = o.tokenUri ?? "https://oauth2.googleapis.com/token";
  const doFetch = o.fetchImpl ?? fetch;
  let cached: { token: string; until: number } | undefined;

  async function accessToken(): Promise<string> {
    if (cached && cached.until > Date.now()) return cached.token;
    const key = await importPKCS8(o.privateKey.replace(/\\n/g, "\n"), "RS256");
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: "https://www.googleapis.com/auth/firebase.messaging" })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(o.clientEmail)
      .setSubject(o.clientEmail)
      .setAudience(tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const res = await doFetch(tokenUri, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
    });
    if (!res.ok) throw new Error(`FCM token exchange failed: HTTP ${res.status}`);
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new Error("FCM token exchange returned no access_token");
    cached = { token: body.access_token, until: Date.now() + Math.max(60, (body.expires_in ?? 3600) - 120) * 1000 };
    return cached.token;
  }

  return {
    name: "fcm",
    async send(target, msg) {
      if (!target.fcmToken) {
        log("info", "push skipped: phone has no FCM token", { deviceId: target.deviceId, commandId: msg.commandId });
        return "skipped";
      }
      const token = await accessToken();
      const res = await doFetch(`${apiBase}/v1/projects/${encodeURIComponent(o.projectId)}/messages:send`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          message: {
            token: target.fcmToken,
            data: { commandId: msg.commandId, type: msg.type, ...msg.data },
            android: { priority: "high", ttl: "600s" },
          },
        }),
      });
      if (res.status === 401) cached = undefined;
      if (!res.ok) throw new Error(`FCM send failed: HTTP ${res.status}`);
      return "sent";
    },
  };
}
