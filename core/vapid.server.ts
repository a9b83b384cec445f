import { createECDH } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prepareDataDir, publicOrigin, type Env } from "./env.server";

/** The VAPID identity of this portal (RFC 8292): what push services know our messages by. Keys are base64url. */
export interface VapidKeys {
  /** The 65-byte uncompressed P-256 point: browsers subscribe with it (`applicationServerKey`). */
  publicKey: string;
  /** The 32-byte private scalar: signs each message's JWT. Never leaves the server. */
  privateKey: string;
  /** mailto: or https: — whom a push service contacts about our traffic. */
  subject: string;
}

export const VAPID_KEYS_FILE = ".vapid-keys.json";

const B64URL = /^[A-Za-z0-9_-]+$/;

/** Whether `publicKey`/`privateKey` are a P-256 pair of the right lengths (the private key derives the public one). */
export function isVapidPair(publicKey: string, privateKey: string): boolean {
  if (!B64URL.test(publicKey) || !B64URL.test(privateKey)) return false;
  const pub = Buffer.from(publicKey, "base64url");
  const priv = Buffer.from(privateKey, "base64url");
  if (pub.length !== 65 || pub[0] !== 4 || priv.length !== 32) return false;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(priv);
    return ecdh.getPublicKey().equals(pub);
  } catch {
    return false;
  }
}

/** A fresh P-256 pair, base64url (what `web-push generate-vapid-keys` makes). */
export function generateVapidPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  // getPrivateKey drops leading zero bytes: pad to the 32 bytes the JWT signer expects.
  const priv = Buffer.alloc(32);
  const raw = ecdh.getPrivateKey();
  raw.copy(priv, 32 - raw.length);
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: priv.toString("base64url") };
}

/**
 * The pair kept in `DATA_DIR/.vapid-keys.json` (0600), made the first time. Two processes starting together: the
 * file is created exclusively, and the one that loses reads the winner's pair, so every process signs with one key
 * (a browser subscribed with another key is refused by its push service).
 */
export function dataDirVapidPair(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, VAPID_KEYS_FILE);
  const read = () => {
    const kept = JSON.parse(readFileSync(file, "utf8")) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey !== "string" || typeof kept.privateKey !== "string" || !isVapidPair(kept.publicKey, kept.privateKey))
      throw new Error(
        `${file} does not hold a VAPID key pair: delete it (browsers will need to turn notifications on again) or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY.`,
      );
    return { publicKey: kept.publicKey, privateKey: kept.privateKey };
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  prepareDataDir(dataDir);
  const pair = generateVapidPair();
  try {
    writeFileSync(file, `${JSON.stringify(pair)}\n`, { mode: 0o600, flag: "wx" });
    return pair;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return read();
    throw err;
  }
}

/** MAIL_FROM's address ("Kids Portal <no-reply@x>" → no-reply@x). */
function mailAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

type VapidEnv = Pick<Env, "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "DATA_DIR" | "PUBLIC_URL" | "PORT" | "MAIL_FROM">;

/**
 * This portal's VAPID keys: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set (checked to be a pair), else the pair
 * generated into DATA_DIR. Subject: VAPID_SUBJECT, else PUBLIC_URL when it is https (push services refuse http and
 * localhost subjects), else MAIL_FROM's address.
 */
export function vapidKeys(e: VapidEnv): VapidKeys {
  let pair: { publicKey: string; privateKey: string };
  if (e.VAPID_PUBLIC_KEY || e.VAPID_PRIVATE_KEY) {
    if (!isVapidPair(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY))
      throw new Error(
        "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not a P-256 key pair (base64url, 65 and 32 bytes): make one with `npx web-push generate-vapid-keys`.",
      );
    pair = { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY };
  } else pair = dataDirVapidPair(e.DATA_DIR);
  const origin = publicOrigin(e);
  const subject = e.VAPID_SUBJECT || (origin.startsWith("https://") ? origin : `mailto:${mailAddress(e.MAIL_FROM)}`);
  return { ...pair, subject };
}

const memo = new Map<string, VapidKeys>();

/** vapidKeys, read once per process and setting (pages ask for the public key on every view). */
export function cachedVapidKeys(e: VapidEnv): VapidKeys {
  const key = [e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY, e.VAPID_SUBJECT, path.resolve(e.DATA_DIR), e.PUBLIC_URL, e.PORT, e.MAIL_FROM].join(
    "\n",
  );
  let keys = memo.get(key);
  if (!keys) {
    keys = vapidKeys(e);
    memo.set(key, keys);
  }
  return keys;
}
