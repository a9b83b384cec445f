import { writeFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../core/log";
import { createDb, migrateToLatest, type DB } from "../db/index";
import { listsVersion } from "../db/queries/web-filter/categories";
import { updateWebFilterSettings } from "../db/queries/web-filter/settings";
import { seedIfEmpty } from "../db/seed/index";
import { createLocalBus } from "../device-service/bus";
import { syncCuratedLists } from "../web-filter/lists/curated-sync";
import { importLists } from "../web-filter/lists/import";
import { createWebFilter, type WebFilterRuntime } from "./web-filter";

/**
 * After `npm run web-filter:import` (another process, with no bus to tell): a process serving the filter reads the
 * lists' version every DNS_LISTS_CHECK_SECONDS and, when it changed, loads the lists again without a restart.
 */
let dir: string;
let db: DB;
let filter: WebFilterRuntime;
let kid: { id: string; filterId: string };
const lines: string[] = [];
const reloads = () => lines.filter((l) => l.includes('"web filter: lists reloaded"')).length;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-lists-reload-"));
  db = createDb({ url: path.join(dir, "portal.sqlite") });
  await migrateToLatest(db);
  await syncCuratedLists(db);
  await seedIfEmpty(db);
  filter = (await createWebFilter({
    db,
    bus: createLocalBus(),
    log: createLogger("info", { stdout: (l) => lines.push(l) }),
    publicUrl: "http://localhost:3000",
    env: { DATA_DIR: dir, DNS_LISTS_CHECK_SECONDS: "1", DNS_UPSTREAM: "udp://127.0.0.1:9" },
  }))!;
  const row = await db.selectFrom("web_filter_settings").select(["profile_id", "filter_id"]).executeTakeFirstOrThrow();
  kid = { id: row.profile_id, filterId: row.filter_id };
  await updateWebFilterSettings(db, kid.id, { blockedCategories: [{ categoryId: "gambling", scheduleId: null }] });
  await filter.service.kidChanged(kid.id);
}, 60_000);
afterAll(async () => {
  await filter?.close();
  await db?.destroy();
});

const decide = (name: string) => filter.policy.decide(kid.filterId, name, "A");
const hostsFile = (name: string, domains: string[]) => {
  const file = path.join(dir, name);
  writeFileSync(file, domains.map((d) => `0.0.0.0 ${d}\n`).join(""));
  return file;
};

describe("the lists after an import", () => {
  it("are loaded again by the running process within the check interval, once, and the page's counts follow", async () => {
    expect(decide("www.jackpotreload54.com")).toEqual({ action: "allow" });
    const gambling = filter.service.countsByCategory().get("gambling")!;
    expect(await filter.reloadListsIfChanged()).toBe(false);

    const summary = await importLists(db, {
      categoryId: "gambling",
      source: "ops",
      replace: false,
      inputs: [hostsFile("casinos.txt", ["jackpotreload54.com", "roulettereload54.net"])],
    });
    expect(summary.added).toBe(2);
    await expect
      .poll(() => decide("www.jackpotreload54.com"), { timeout: 10_000 })
      .toEqual({ action: "block", reason: "category:gambling" });
    expect(decide("roulettereload54.net")).toEqual({ action: "block", reason: "category:gambling" });
    expect(filter.service.countsByCategory().get("gambling")).toBe(gambling + 2);
    expect(reloads()).toBe(1);

    // Nothing changed since: the next checks load nothing, and another process's start-up (the shipped lists
    // written again) changes nothing either.
    await new Promise((r) => setTimeout(r, 2_500));
    await syncCuratedLists(db);
    expect(await filter.reloadListsIfChanged()).toBe(false);
    expect(reloads()).toBe(1);
  }, 30_000);

  it("an import that removes domains (--replace) unblocks them the same way; an import that changes nothing does not reload", async () => {
    const version = await listsVersion(db);
    await importLists(db, { categoryId: "gambling", source: "other", replace: false, inputs: [hostsFile("none.txt", [])] });
    expect(await listsVersion(db)).toBe(version);

    await importLists(db, {
      categoryId: "gambling",
      source: "ops",
      replace: true,
      inputs: [hostsFile("fewer.txt", ["roulettereload54.net"])],
    });
    await expect.poll(() => decide("www.jackpotreload54.com"), { timeout: 10_000 }).toEqual({ action: "allow" });
    expect(decide("roulettereload54.net")).toEqual({ action: "block", reason: "category:gambling" });
  }, 30_000);
});
