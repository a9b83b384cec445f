import { describe, expect, it } from "vitest";
import { safeRedirect } from "./auth.server";
import { parseEnv } from "./env.server";

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
});

describe("environment", () => {
  it("works on a fresh machine with defaults", () => {
    const e = parseEnv({ DATA_DIR: "/tmp/kids-portal-env-test", NODE_ENV: "test" });
    expect(e.PORT).toBe(3000);
    expect(e.databaseKind).toBe("sqlite");
    expect(e.sqlitePath).toBe("/tmp/kids-portal-env-test/portal.sqlite");
    expect(e.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(e.SIMULATE_DEMO_DEVICES).toBe(true);
  });

  it("selects PostgreSQL from DATABASE_URL", () => {
    const e = parseEnv({ DATABASE_URL: "postgres://u@h:5432/db", SESSION_SECRET: "x".repeat(32) });
    expect(e.databaseKind).toBe("postgres");
  });

  it("names every invalid variable", () => {
    expect(() => parseEnv({ PORT: "not-a-port", DATABASE_URL: "mysql://x" })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });
});
