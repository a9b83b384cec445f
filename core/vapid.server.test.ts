import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { generateVapidPair, isVapidPair, VAPID_KEYS_FILE, vapidKeys } from "./vapid.server";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "vapid-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the VAPID keys", () => {
  it("are generated once into DATA_DIR (0600) and the same pair is read on the next start", () => {
    const dir = tempDir();
    const e = parseEnv({ DATA_DIR: dir, SESSION_SECRET: "x".repeat(32) });
    const first = vapidKeys(e);
    expect(isVapidPair(first.publicKey, first.privateKey)).toBe(true);
    const file = path.join(dir, VAPID_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ publicKey: first.publicKey, privateKey: first.privateKey });
    const restarted = vapidKeys(parseEnv({ DATA_DIR: dir, SESSION_SECRET: "x".repeat(32) }));
    expect(restarted).toEqual(first);
  });

  it("come from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set (nothing written), and must be a pair", () => {
    const dir = tempDir();
    const pair = generateVapidPair();
    const keys = vapidKeys(
      parseEnv({
        DATA_DIR: dir,
        VAPID_PUBLIC_KEY: pair.publicKey,
        VAPID_PRIVATE_KEY: pair.privateKey,
        VAPID_SUBJECT: "mailto:ops@example.com",
      }),
    );
    expect(keys).toEqual({ ...pair, subject: "mailto:ops@example.com" });
    expect(() => statSync(path.join(dir, VAPID_KEYS_FILE))).toThrow();
    const other = generateVapidPair();
    expect(() => vapidKeys(parseEnv({ DATA_DIR: dir, VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey }))).toThrow(
      /not a P-256 key pair/,
    );
    expect(() => parseEnv({ DATA_DIR: dir, VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/set both/);
    expect(() => parseEnv({ DATA_DIR: dir, VAPID_SUBJECT: "http://portal.example" })).toThrow(/mailto: or https:/);
  });

  it("refuse a damaged key file rather than sign with something else", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, VAPID_KEYS_FILE), JSON.stringify({ publicKey: "abc", privateKey: "def" }));
    expect(() => vapidKeys(parseEnv({ DATA_DIR: dir }))).toThrow(/does not hold a VAPID key pair/);
  });

  it("name the sender by PUBLIC_URL when it is https, else by MAIL_FROM's address", () => {
    const dir = tempDir();
    expect(vapidKeys(parseEnv({ DATA_DIR: dir, PUBLIC_URL: "https://portal.example.com/x" })).subject).toBe("https://portal.example.com");
    expect(vapidKeys(parseEnv({ DATA_DIR: dir, MAIL_FROM: "Kids Portal <alerts@portal.example>" })).subject).toBe(
      "mailto:alerts@portal.example",
    );
  });
});
