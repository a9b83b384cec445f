import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local push service (RFC 8030) for tests: it hands out browser subscriptions (a P-256 key pair and an auth secret
 * per endpoint, as a browser makes them) and, for each message POSTed to an endpoint, checks what a real push
 * service checks and what a browser does:
 * - the VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<public key>`, an ES256 JWT whose signature verifies
 *   with k, `aud` the endpoint's origin, `exp` in the future and at most 24 h away, `sub` a mailto: or https: address;
 * - the aes128gcm body (RFC 8188) decrypted with the subscription's private key and auth secret (RFC 8291), written
 *   here with node:crypto alone (not web-push's own http_ece), so the sender is checked against the RFCs.
 * It answers 201, or the statuses a test scripts for an endpoint (404, 410, 429, 500…), and records every message.
 */

export interface DoubleSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedMessage {
  endpoint: string;
  /** The decrypted payload (UTF-8), or null when the message was refused before decryption. */
  payload: string | null;
  status: number;
  /** Why the double refused it (a broken signature, a bad body), else null. */
  problem: string | null;
  headers: Record<string, string | string[] | undefined>;
  claims: Record<string, unknown> | null;
  vapidKey: string | null;
}

interface Browser {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  script: number[];
}

const b64url = (b: Buffer) => b.toString("base64url");

/** RFC 8291 §3.4 + RFC 8188 §2: one aes128gcm body decrypted with the browser's private key and auth secret. */
export function decryptAes128gcm(body: Buffer, ua: ReturnType<typeof createECDH>, authSecret: Buffer): Buffer {
  if (body.length < 21) throw new Error("body shorter than the aes128gcm header");
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const keyid = body.subarray(21, 21 + idlen);
  if (idlen !== 65 || keyid[0] !== 4) throw new Error("keyid is not the sender's 65-byte P-256 public key");
  const ciphertext = body.subarray(21 + idlen);
  if (rs < 18 || ciphertext.length > rs) throw new Error(`one record expected (rs ${rs}, ${ciphertext.length} bytes)`);
  const uaPublic = ua.getPublicKey();
  const ecdhSecret = ua.computeSecret(keyid);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, keyid]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // Last record: data, then the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 2) throw new Error("the last record's padding delimiter (0x02) is missing");
  return padded.subarray(0, end);
}

/** An ES256 JWT checked against a raw P-256 public key (base64url); its claims, or why not. */
export function verifyVapidJwt(token: string, publicKeyB64: string): { claims: Record<string, unknown> } | { problem: string } {
  const parts = token.split(".");
  if (parts.length !== 3) return { problem: "the JWT does not have three parts" };
  const [h, p, s] = parts as [string, string, string];
  let header: { alg?: string; typ?: string };
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(h, "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8"));
  } catch {
    return { problem: "the JWT's header or claims are not JSON" };
  }
  if (header.alg !== "ES256") return { problem: `the JWT is signed with ${header.alg}, not ES256` };
  const raw = Buffer.from(publicKeyB64, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) return { problem: "k is not a 65-byte P-256 public key" };
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) },
    format: "jwk",
  });
  const ok = verify("sha256", Buffer.from(`${h}.${p}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(s, "base64url"));
  return ok ? { claims } : { problem: "the JWT's signature does not verify with k" };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export interface PushServiceDouble {
  /** Origin of the double, e.g. http://127.0.0.1:45123 (the JWT's expected `aud`). */
  origin: string;
  /** A new browser subscription at this service (what PushManager.subscribe gives, as JSON). */
  subscribe(): DoubleSubscription;
  /** The statuses the next messages to `endpoint` get, in order (then 201 again). */
  answer(endpoint: string, ...statuses: number[]): void;
  /** Every message that reached the double, in order. */
  received: ReceivedMessage[];
  close(): Promise<void>;
}

export async function startPushServiceDouble(o: { now?: () => number } = {}): Promise<PushServiceDouble> {
  const browsers = new Map<string, Browser>();
  const received: ReceivedMessage[] = [];
  let origin = "";
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const endpoint = `${origin}${req.url ?? ""}`;
    const record = (status: number, problem: string | null, extra: Partial<ReceivedMessage> = {}) => {
      received.push({ endpoint, payload: null, status, problem, headers: req.headers, claims: null, vapidKey: null, ...extra });
      res.writeHead(status, { "Content-Type": "text/plain" }).end(problem ?? "");
    };
    const browser = browsers.get(req.url ?? "");
    if (req.method !== "POST") return record(405, "push messages are POSTed");
    if (!browser) return record(404, "no such subscription");
    // VAPID (RFC 8292 §3): Authorization: vapid t=<jwt>, k=<key>.
    const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? "");
    if (!auth) return record(401, `Authorization is not "vapid t=…, k=…": ${req.headers.authorization ?? "(none)"}`);
    const [, jwt, k] = auth as unknown as [string, string, string];
    const checked = verifyVapidJwt(jwt, k);
    if ("problem" in checked) return record(403, checked.problem, { vapidKey: k });
    const { claims } = checked;
    const nowS = Math.floor((o.now?.() ?? Date.now()) / 1000);
    const exp = Number(claims.exp);
    if (claims.aud !== origin) return record(403, `aud ${String(claims.aud)} is not ${origin}`, { claims, vapidKey: k });
    if (!Number.isFinite(exp) || exp <= nowS || exp > nowS + 24 * 3600)
      return record(403, `exp ${String(claims.exp)} is not within the next 24 hours`, { claims, vapidKey: k });
    if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub))
      return record(403, `sub ${String(claims.sub)} is not a mailto: or https: address`, { claims, vapidKey: k });
    if (req.headers["content-encoding"] !== "aes128gcm")
      return record(415, `Content-Encoding is ${req.headers["content-encoding"]}, not aes128gcm`, { claims, vapidKey: k });
    if (req.headers.ttl === undefined || !/^\d+$/.test(String(req.headers.ttl)))
      return record(400, "no TTL header", { claims, vapidKey: k });
    let payload: string;
    try {
      payload = decryptAes128gcm(body, browser.ecdh, browser.auth).toString("utf8");
    } catch (err) {
      return record(400, `the body does not decrypt: ${(err as Error).message}`, { claims, vapidKey: k });
    }
    const status = browser.script.shift() ?? 201;
    if (status === 404 || status === 410) browsers.delete(req.url ?? "");
    received.push({ endpoint, payload, status, problem: null, headers: req.headers, claims, vapidKey: k });
    res.writeHead(status, { "Content-Type": "text/plain" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    subscribe() {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${randomBytes(12).toString("hex")}`;
      browsers.set(path, { ecdh, auth, script: [] });
      return { endpoint: `${origin}${path}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } };
    },
    answer(endpoint, ...statuses) {
      const b = browsers.get(new URL(endpoint).pathname);
      if (!b) throw new Error(`the double has no subscription ${endpoint}`);
      b.script.push(...statuses);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
