import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOW, useDemoFamily } from "../../db/queries/dashboard/dashboard.testing";
import { ensureFilterId, revokeFilterId, updateWebFilterSettings } from "../../db/queries/web-filter/settings";
import { createResolver } from "../create-resolver";
import { devCertificate } from "../dev-cert";
import { syncCuratedLists } from "../lists/curated-sync";
import { loadDomainIndex } from "../lists/load";
import { a, startFakeUpstream, type FakeUpstream } from "../resolver/upstream/fake-upstream.testing";
import { startDotServer, type RunningServer } from "../servers/dot";
import { kdig } from "../servers/kdig.testing";
import { webFilterSettings } from "../settings";
import { createDbFilterPolicy, type DbFilterPolicy } from "./db-policy";

/**
 * The policy from the database behind the real resolver, end to end: settings saved with the queries, loaded into
 * memory, and a real DoT client (kdig) asking a DoT server in front of a local upstream, on SQLite.
 */
const DOMAIN = "dns.localhost";

describe("the database policy behind the resolver (DoT, SQLite)", () => {
  const f = useDemoFamily("sqlite");
  let upstream: FakeUpstream;
  let dot: RunningServer;
  let policy: DbFilterPolicy;
  let dataDir: string;
  let mia: string;
  let leo: string;

  beforeAll(async () => {
    await syncCuratedLists(f.t.db);
    mia = await ensureFilterId(f.t.db, f.mia.profileId, NOW);
    await updateWebFilterSettings(
      f.t.db,
      f.mia.profileId,
      { safeSearch: true, blockedCategories: [{ categoryId: "social-networks", scheduleId: null }] },
      NOW,
    );
    leo = await ensureFilterId(f.t.db, f.leo.profileId, NOW);
    await revokeFilterId(f.t.db, f.leo.profileId, NOW);
    policy = await createDbFilterPolicy(f.t.db, await loadDomainIndex(f.t.db), { now: () => NOW });

    upstream = await startFakeUpstream({
      "A wikipedia.org": { answers: [a("wikipedia.org", "198.35.26.96", 300)] },
      "A facebook.com": { answers: [a("facebook.com", "157.240.1.35", 300)] },
      "A forcesafesearch.google.com": { answers: [a("forcesafesearch.google.com", "216.239.38.120", 3600)] },
    });
    dataDir = mkdtempSync(path.join(os.tmpdir(), "web-filter-policy-"));
    const settings = webFilterSettings({ DATA_DIR: dataDir, DNS_UPSTREAM: upstream.address, DNS_UPSTREAM_TIMEOUT_MS: "500" });
    dot = await startDotServer({
      resolver: createResolver(settings, policy),
      tls: devCertificate(settings.devCertDir, DOMAIN),
      filterDomain: DOMAIN,
      port: 0,
      host: "127.0.0.1",
      idleTimeoutMs: 1_000,
    });
  });
  afterAll(async () => {
    await Promise.all([dot?.close(), upstream?.close()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const ask = (id: string, ...args: string[]) => kdig(["@127.0.0.1", "-p", String(dot.port), "+tls", `+tls-sni=${id}.${DOMAIN}`, ...args]);

  it("blocks a blocked category's domain with 0.0.0.0 and forwards the rest", async () => {
    const blocked = await ask(mia, "facebook.com");
    expect(blocked.status, blocked.output).toBe("NOERROR");
    expect(blocked.answers).toEqual(["facebook.com. 60 A 0.0.0.0"]);
    expect(upstream.count("A", "facebook.com")).toBe(0);
    expect((await ask(mia, "wikipedia.org")).answers).toEqual(["wikipedia.org. 300 A 198.35.26.96"]);
  });

  it("rewrites Google to SafeSearch by CNAME", async () => {
    expect((await ask(mia, "www.google.com")).answers).toEqual([
      "www.google.com. 300 CNAME forcesafesearch.google.com.",
      "forcesafesearch.google.com. 3600 A 216.239.38.120",
    ]);
  });

  it("refuses a revoked filter id and an unknown one", async () => {
    expect((await ask(leo, "wikipedia.org")).status).toBe("REFUSED");
    expect((await ask("nosuchfilter0000000000", "wikipedia.org")).status).toBe("REFUSED");
  });

  it("answers from memory until refreshed: a kid's changes and revocation take effect on refreshKid", async () => {
    await updateWebFilterSettings(f.t.db, f.mia.profileId, { blockedCategories: [] }, NOW);
    expect(policy.decide(mia, "facebook.com", "A")).toEqual({ action: "block", reason: "category:social-networks" });
    await policy.refreshKid(f.mia.profileId);
    expect(policy.decide(mia, "facebook.com", "A")).toEqual({ action: "allow" });
    expect((await ask(mia, "facebook.com")).answers).toEqual(["facebook.com. 300 A 157.240.1.35"]);

    await revokeFilterId(f.t.db, f.mia.profileId, NOW);
    expect(policy.knownFilter(mia)).toBe(true);
    await policy.refreshKid(f.mia.profileId);
    expect(policy.knownFilter(mia)).toBe(false);
    expect((await ask(mia, "wikipedia.org")).status).toBe("REFUSED");

    const next = await ensureFilterId(f.t.db, f.mia.profileId, NOW);
    await policy.refresh();
    expect([policy.knownFilter(next), policy.knownFilter(mia), policy.knownFilter(leo)]).toEqual([true, false, false]);
  });
});
