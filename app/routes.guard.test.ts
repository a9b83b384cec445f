import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The route guard, checked structurally: every route module outside the public pages must authorise in each
 * loader and action it exports (requireParent, requireKidAccess or requireOperator), so a new page cannot
 * forget it.
 */
// resources.app-icon: a drawn icon depends on nothing but its address (colour from the package name, the letters
// given), so it carries nothing of anyone's and needs no sign-in.
const PUBLIC = [
  /^_auth(\.|$)/,
  /^legal\./,
  /^contact\.tsx$/,
  /^\$\.tsx$/,
  /^_index\.tsx$/,
  /^logout\.tsx$/,
  /^users\./,
  /^dev\.mailbox/,
  /^healthz/,
  /^webhooks\./,
  /^reports\.unsubscribe\.tsx$/,
  /^alerts\.unsubscribe\.tsx$/,
  /^resources\.app-icon\.tsx$/,
];

const dir = path.resolve("app/routes");
const files = readdirSync(dir).filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts") && !f.endsWith(".test.tsx"));

function exportedFunctionBody(source: string, name: "loader" | "action"): string | null {
  const start = source.search(new RegExp(`export (async )?function ${name}\\b|export const ${name}\\b`));
  if (start < 0) return null;
  const rest = source.slice(start);
  const next = rest.slice(1).search(/\nexport /);
  return next < 0 ? rest : rest.slice(0, next + 1);
}

describe("route guard", () => {
  it("requireKidDevice (kid pages' guard) goes through requireKidAccess", () => {
    const source = readFileSync(path.resolve("app/components/dashboard/guard.server.ts"), "utf8");
    // Awaited with the phone and kid reads beside it (Promise.all), before anything read is returned.
    expect(source).toMatch(/export async function requireKidDevice[\s\S]*?await Promise\.all\(\[\s*requireKidAccess\(args, profileId\)/);
  });

  it("requireReport and requireReportWith (the report page's guard) check the session and the kid's access", () => {
    const source = readFileSync(path.resolve("app/components/reports/report.server.ts"), "utf8");
    expect(source).toMatch(/export async function requireReport\([\s\S]*?requireReportWith\(/);
    // The session check beside the report's read, then the kid's access check before anything is returned.
    expect(source).toMatch(
      /export async function requireReportWith[\s\S]*?await Promise\.all\(\[requireParent\(args\)[\s\S]*?await Promise\.all\(\[requireKidAccess\(args, report\.profile_id\)[\s\S]*?return \{ report, also: extra \}/,
    );
  });

  it("webhook routes (called by a provider, not a parent) have no loader and verify the provider's signature", () => {
    for (const file of files.filter((f) => /^webhooks\./.test(f))) {
      const source = readFileSync(path.join(dir, file), "utf8");
      expect(exportedFunctionBody(source, "loader"), `${file} must not export a loader`).toBeNull();
      expect(exportedFunctionBody(source, "action"), `${file} must verify a signature`).toMatch(
        /handleWebhook\(await request\.text\(\), request\.headers\.get\("stripe-signature"\)\)/,
      );
    }
  });

  it("finds the route modules", () => {
    expect(files).toContain("_app.kids-device.tsx");
  });

  for (const file of files.filter((f) => !PUBLIC.some((p) => p.test(f)))) {
    it(`${file} authorises every loader and action`, () => {
      const source = readFileSync(path.join(dir, file), "utf8");
      for (const name of ["loader", "action"] as const) {
        const body = exportedFunctionBody(source, name);
        if (body === null) continue;
        // JSON resource routes may answer a missing session with the spec's `is_logout: 1` instead of a redirect.
        const guarded =
          /require(Parent|KidAccess|KidDevice|Operator|Report|ReportWith)\(/.test(body) ||
          (/getParent\(/.test(body) && /is_logout/.test(body));
        expect(guarded, `${file} ${name} must authorise`).toBe(true);
      }
    });
  }
});
