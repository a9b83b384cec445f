import { describe, expect, it } from "vitest";
import { safeRedirect, tokenFromHeaders } from "./auth.server";
import { sessionCookie } from "#core/session-cookie.server";
import { parseEnv } from "#core/env.server";

describe("safeRedirect", () => {
  it.each([
    ["/kids-device?profileId=1", "/kids-device?profileId=1"],
    ["/change-password", "/change-password"],
    ["https://evil.example/", "/kids-device"],
    ["//evil.example/", "/kids-device"],
    ["/\\evil.example", "/kids-device"],
    ["javascript:alert(1)", "/kids-device"],
    ["", "/kids-device"],
    [null, "/kids-device"],
  ])("%s → %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  // Known bypasses: each would leave the portal once a browser has cleaned it up (tabs and newlines are
  // stripped, a backslash reads as a slash, a scheme without slashes is still absolute).
  it.each([
    "//x",
    "//evil.example/kids-device",
    "/\\x",
    "/\\/x",
    "\\/x",
    "\\\\x",
    "/\t/x",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "/\u0000/evil.example",
    "/\u007f/evil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%5C/evil.example",
    "/%2F/evil.example",
    "%2F%2Fx",
    "/%2F%2Fx",
    "https:x",
    "https:/x",
    "https://evil.example",
    "HTTP://evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "/javascript:alert(1)/../..//evil.example",
    " //evil.example",
    "data:text/html,<script>alert(1)</script>",
    "kids-device",
  ])("refuses %j", (input) => {
    expect(safeRedirect(input)).toBe("/kids-device");
  });

  it.each([
    ["/kids-device?profileId=1&filter=week", "/kids-device?profileId=1&filter=week"],
    ["/device-info?serialNumber=A%20B#top", "/device-info?serialNumber=A%20B#top"],
    ["/a/../account", "/account"],
  ])("keeps a same-origin path %j", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it("refuses a very long target", () => {
    expect(safeRedirect(`/${"a".repeat(5000)}`)).toBe("/kids-device");
  });

  it("uses the fallback given", () => {
    expect(safeRedirect("//x", "/login")).toBe("/login");
  });
});

describe("environment", () => {
  it("works on a fresh machine with defaults", () => {
    const e = parseEnv({ DATA_DIR: "/tmp/kids-portal-env-test", NODE_ENV: "test" });
    expect(e.PORT).toBe(3000);
    expect(e.databaseKind).toBe("sqlite");
    expect(e.sqlitePath).toBe("/tmp/kids-portal-env-test/portal.sqlite");
    expect(e.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(e.SIMULATE_DEMO_DEVICES).toBe(true);
    expect(e.SIMULATOR_DEMO_ACTIVITY).toBe(true); // a living demo under `npm start` (issue 53 item 9)
    expect(parseEnv({ DATA_DIR: "/tmp/kids-portal-env-test", SIMULATOR_DEMO_ACTIVITY: "false" }).SIMULATOR_DEMO_ACTIVITY).toBe(false);
  });

  it("selects PostgreSQL from DATABASE_URL", () => {
    const e = parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", SESSION_SECRET: "x".repeat(32) });
    expect(e.databaseKind).toBe("postgres");
  });

  it("names every invalid variable", () => {
    expect(() => parseEnv({ PORT: "not-a-port", DATABASE_URL: "mysql://x" })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });
});

describe("tokenFromHeaders", () => {
  const cookieOf = async (token: string) => (await sessionCookie().serialize(token)).split(";")[0];

  it("reads the session token from the cookie header, every time the same, beside other cookies and after many others", async () => {
    const mine = await cookieOf("token-a");
    const header = `theme=dark; ${mine}; kp_toast=x`;
    expect(await tokenFromHeaders(null, header)).toBe("token-a");
    expect(await tokenFromHeaders(null, header)).toBe("token-a");
    // More headers than are kept: each still reads as its own token, and the first again.
    for (let i = 0; i < 1_100; i++) expect(await tokenFromHeaders(null, await cookieOf(`token-${i}`))).toBe(`token-${i}`);
    expect(await tokenFromHeaders(null, header)).toBe("token-a");
    expect(await tokenFromHeaders(null, `${await cookieOf("token-b")}; pad=${"x".repeat(2_000)}`)).toBe("token-b");
  });

  it("has no token without the cookie, with an empty or a malformed one; a bearer token comes first", async () => {
    expect(await tokenFromHeaders(null, null)).toBeNull();
    expect(await tokenFromHeaders(null, "theme=dark")).toBeNull();
    expect(await tokenFromHeaders(null, "theme=dark")).toBeNull();
    expect(await tokenFromHeaders(null, "kp_session=%%%")).toBeNull();
    expect(await tokenFromHeaders(null, await cookieOf(""))).toBeNull();
    expect(await tokenFromHeaders("Bearer tok-1", await cookieOf("token-a"))).toBe("tok-1");
  });
});
