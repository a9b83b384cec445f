import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#core/env.server";
import { freshNonce, iconOrigin, securityHeaders } from "./security.server";

const base = { NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-security-headers", SESSION_SECRET: "x".repeat(40) } as const;

function imgSrc(env: ReturnType<typeof parseEnv>): string {
  const headers: Record<string, string> = {};
  const req = { path: "/play-store", headers: {}, ip: "127.0.0.1", socket: {} } as unknown as Request;
  const res = { locals: {}, setHeader: (k: string, v: string) => void (headers[k.toLowerCase()] = v) } as unknown as Response;
  securityHeaders(env)(req, res, () => {});
  return (headers["content-security-policy"] ?? "").split("; ").find((d) => d.startsWith("img-src ")) ?? "";
}

/** docs/security.md: real store icons (CATALOG_ICON_BASE_URL) are images from one more origin, and only that one. */
describe("img-src and CATALOG_ICON_BASE_URL", () => {
  it.each([
    ["", null],
    ["https://icons.example/play", "https://icons.example"],
    ["https://cdn.example:8443/{package}/96.webp", "https://cdn.example:8443"],
    ["http://127.0.0.1:9000/icons", "http://127.0.0.1:9000"],
  ])("%j → %j", (value, origin) => {
    expect(iconOrigin(value)).toBe(origin);
  });

  it("allows the icon base's origin when set, nothing more when empty (icons drawn locally as data: URLs)", () => {
    expect(imgSrc(parseEnv({ ...base }))).toBe("img-src 'self' data: blob: https://*.tile.openstreetmap.org");
    expect(imgSrc(parseEnv({ ...base, CATALOG_ICON_BASE_URL: "https://icons.example/{package}/96.webp" }))).toBe(
      "img-src 'self' data: blob: https://*.tile.openstreetmap.org https://icons.example",
    );
  });
});

/** Every response's script nonce: 16 random bytes, never handed out twice (drawn from a pool refilled every 256). */
describe("freshNonce", () => {
  it("gives 16 bytes of base64, different every time across several refills of its pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const n = freshNonce();
      expect(Buffer.from(n, "base64")).toHaveLength(16);
      expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      seen.add(n);
    }
    expect(seen.size).toBe(2000);
  });

  it("is the nonce of the response's policy", () => {
    const headers: Record<string, string> = {};
    const req = { path: "/kids-device", headers: {}, ip: "127.0.0.1", socket: {} } as unknown as Request;
    const res = {
      locals: {} as Record<string, unknown>,
      setHeader: (k: string, v: string) => void (headers[k.toLowerCase()] = v),
    } as unknown as Response;
    const nonces = new Set<string>();
    for (let i = 0; i < 300; i++) {
      securityHeaders(parseEnv({ ...base }))(req, res, () => {});
      const nonce = String(res.locals.cspNonce);
      expect(headers["content-security-policy"]).toContain(`'nonce-${nonce}'`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(300);
  });
});
