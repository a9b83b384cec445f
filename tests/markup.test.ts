import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../server/web.testing";
import { BUILT_PAGES, type DemoIds, type Who } from "../e2e/pages.testing";

// Valid markup (issue 11 item 7): the Nu Html Checker (vnu-jar from npm, on Java) on the server HTML of every built
// page and popup (e2e/pages.testing.ts), as a browser without JavaScript gets it. Needs `remix build` and `java`
// (`npm test` installs Debian's default-jre-headless when it is missing); fails, never skips, without them.
let h: Awaited<ReturnType<typeof startTestServer>>;
const VNU_JAR = String(createRequire(import.meta.url)("vnu-jar")); // the module is a String object carrying the jar's path

let started: (typeof h)["started"];
let base: string;
let ids: DemoIds;
const cookies: Partial<Record<Who, string>> = {};

beforeAll(async () => {
  h = await startTestServer("markup");
  ({ started, base } = h);
  const db = started.services.db;
  for (const [who, email] of [
    ["parent", "demo@kids-portal.test"],
    ["operator", "operator@kids-portal.test"],
  ] as const) {
    cookies[who] = (await h.signIn(email)).cookie;
  }
  const kid = (name: string) =>
    db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.profile_id as profileId", "devices.serial_number as serialNumber"])
      .where("kid_profiles.name", "=", name)
      .executeTakeFirstOrThrow();
  const mia = await kid("Mia");
  const app = await db
    .selectFrom("profile_apps")
    .select(["package_name", "play_store_category"])
    .where("profile_id", "=", mia.profileId)
    .where("play_store_category", "!=", "Others")
    .executeTakeFirstOrThrow();
  ids = { mia, leo: await kid("Leo"), packageName: app.package_name, categoryId: app.play_store_category };
});
afterAll(async () => {
  await started?.close();
});

describe("valid markup", () => {
  it("the Nu Html Checker finds no error in the server HTML of any built page or popup", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "vnu-"));
    const names = new Map<string, string>();
    const wrongStatus: string[] = [];
    for (const p of BUILT_PAGES) {
      const res = await fetch(`${base}${p.url(ids)}`, {
        headers: p.who === "signed-out" ? {} : { Cookie: cookies[p.who]! },
        redirect: "manual",
      });
      if (res.status !== (p.status ?? 200)) wrongStatus.push(`${p.name}: answered ${res.status}`);
      const file = path.join(dir, `${names.size}.html`);
      writeFileSync(file, await res.text());
      names.set(path.basename(file), p.name);
    }
    const files = [...names.keys()].map((f) => path.join(dir, f));
    const { stderr } = await promisify(execFile)("java", ["-jar", VNU_JAR, "--format", "json", "--exit-zero-always", ...files], {
      maxBuffer: 32 * 1024 * 1024,
    });
    const report = JSON.parse(stderr) as {
      messages: { type: string; url?: string; message: string; extract?: string; lastLine?: number }[];
    };
    const errors = report.messages
      .filter((m) => m.type === "error" || m.type === "non-document-error")
      .map(
        (m) =>
          `${names.get(path.basename(m.url ?? "")) ?? m.url}: line ${m.lastLine ?? "?"}: ${m.message}${m.extract ? ` «${m.extract.replace(/\s+/g, " ").trim()}»` : ""}`,
      );
    expect([...wrongStatus, ...errors]).toEqual([]);
  }, 120_000);
});
