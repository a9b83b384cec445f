import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#core/env.server";
import { forwardedHost, freshNonce, iconOrigin, referrerPolicy, sameOriginPosts, securityHeaders } from "./security.server";

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

/** Issue 52 finding 5: X-Forwarded-Host is a client's word unless TRUST_PROXY says a proxy sets it. */
describe("sameOriginPosts and X-Forwarded-Host", () => {
  /** The request headers as the next handler (Remix) sees them. */
  let seen: Record<string, string> = {};
  function post(headers: Record<string, string>, trustProxy: number): number {
    const lower: Record<string, string> = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    seen = lower;
    const req = {
      method: "POST",
      path: "/account",
      headers: lower,
      get: (name: string) => lower[name.toLowerCase()],
    } as unknown as Request;
    let status = 0;
    const res = {
      status(code: number) {
        status = code;
        return res;
      },
      type: () => res,
      send: () => res,
    } as unknown as Response;
    sameOriginPosts({ trustProxy })(req, res, () => void (status = 200));
    return status;
  }

  it("without TRUST_PROXY a forged X-Forwarded-Host does not make another site's post ours", () => {
    const forged = { Origin: "https://evil.example", Host: "portal.example", "X-Forwarded-Host": "evil.example" };
    expect(post(forged, 0)).toBe(403);
    // Our own page still posts (Origin = Host).
    expect(post({ Origin: "https://portal.example", Host: "portal.example", "X-Forwarded-Host": "evil.example" }, 0)).toBe(200);
    // Behind a proxy that rewrites Host, the forwarded host is not believed until TRUST_PROXY is set.
    expect(post({ Origin: "https://portal.example", Host: "10.0.0.5:3000", "X-Forwarded-Host": "portal.example" }, 0)).toBe(403);
  });

  it("with TRUST_PROXY the host the proxy forwarded is honoured, and only the one a trusted proxy set", () => {
    expect(post({ Origin: "https://portal.example", Host: "10.0.0.5:3000", "X-Forwarded-Host": "portal.example" }, 1)).toBe(200);
    expect(post({ Origin: "https://evil.example", Host: "10.0.0.5:3000", "X-Forwarded-Host": "portal.example" }, 1)).toBe(403);
    // A client's own X-Forwarded-Host, kept on the left by a proxy that appends, is not the proxy's word.
    expect(post({ Origin: "https://evil.example", Host: "10.0.0.5:3000", "X-Forwarded-Host": "evil.example, portal.example" }, 1)).toBe(
      403,
    );
    expect(forwardedHost("evil.example, portal.example", 1)).toBe("portal.example");
    expect(forwardedHost("evil.example, portal.example, lb.internal", 2)).toBe("portal.example");
    expect(forwardedHost("portal.example", 3)).toBe("portal.example");
    expect(forwardedHost("portal.example", 0)).toBeNull();
  });

  it("Origin: null passes only when the browser's Fetch Metadata says the post came from our own page", () => {
    // A form on an e-mail-link page (Referrer-Policy: no-referrer) posts with Origin: null and Sec-Fetch-Site: same-origin.
    const fromOurPage: Record<string, string> = { Origin: "null", Host: "portal.example", "Sec-Fetch-Site": "same-origin" };
    expect(post(fromOurPage, 0)).toBe(200);
    // Remix's own check would refuse Origin: null (a 500): the vouched-for post goes on without it.
    expect(seen.origin).toBeUndefined();
    expect(post({ Origin: "null", Host: "portal.example", "Sec-Fetch-Site": "cross-site" }, 0)).toBe(400);
    expect(post({ Origin: "null", Host: "portal.example", "Sec-Fetch-Site": "same-site" }, 0)).toBe(400);
    expect(post({ Origin: "null", Host: "portal.example" }, 0)).toBe(400);
  });
});

describe("X-Forwarded-Host as the rest of the app sees it (Remix's action check, the request URL, the Apple button)", () => {
  const seen = (value: string, trustProxy: string) => {
    const headers: Record<string, string> = { "x-forwarded-host": value };
    const req = {
      path: "/login",
      headers,
      get: (n: string) => headers[n.toLowerCase()],
      ip: "127.0.0.1",
      socket: {},
    } as unknown as Request;
    const res = { locals: {}, setHeader: () => {} } as unknown as Response;
    securityHeaders(parseEnv({ ...base, TRUST_PROXY: trustProxy }))(req, res, () => {});
    return headers["x-forwarded-host"];
  };
  it("is removed without TRUST_PROXY, and is the trusted proxy's value with it", () => {
    expect(seen("evil.example", "0")).toBeUndefined();
    expect(seen("evil.example, portal.example", "1")).toBe("portal.example");
    expect(seen("portal.example", "1")).toBe("portal.example");
  });
});

/** Issue 52 finding 11: pages opened from a link in mail send no Referer (docs/accounts.md). */
describe("Referrer-Policy", () => {
  it.each([
    ["/reset-password", "?iv=a&encryptedData=b", "no-referrer"],
    ["/password/set", "?iv=a&encryptedData=b", "no-referrer"],
    ["/reset-password.data", "?iv=a&encryptedData=b", "no-referrer"],
    ["/login", "?iv=a&encryptedData=b", "no-referrer"],
    ["/login", "?token=t", "no-referrer"],
    ["/reports/unsubscribe", "?parent=p&sig=s", "no-referrer"],
    ["/users/handoff", "?to=%2Fkids-device", "no-referrer"],
    ["/login", "", "strict-origin-when-cross-origin"],
    ["/login", "?redirectTo=%2Faccount", "strict-origin-when-cross-origin"],
    ["/kids-device", "?profileId=p", "strict-origin-when-cross-origin"],
  ])("%s%s → %s", (path, search, policy) => {
    expect(referrerPolicy(path, search)).toBe(policy);
    const headers: Record<string, string> = {};
    const req = { path, originalUrl: `${path}${search}`, headers: {}, ip: "127.0.0.1", socket: {} } as unknown as Request;
    const res = { locals: {}, setHeader: (k: string, v: string) => void (headers[k.toLowerCase()] = v) } as unknown as Response;
    securityHeaders(parseEnv({ ...base }))(req, res, () => {});
    expect(headers["referrer-policy"]).toBe(policy);
  });
});
