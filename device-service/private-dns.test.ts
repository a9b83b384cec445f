import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrivateDnsTransition } from "../core/private-dns";
import { DIALECTS } from "../db/index.testing";
import { ensureFilterId, revokeFilterId } from "../db/queries/web-filter/settings";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";
import { applyPolicy, latestPolicy } from "./policy/store";
import { privateDnsAlertEvent, readPrivateDnsView } from "./private-dns";

const MIA = "DEMO-MIA-0001";
const DOMAIN = "dns.portal.test";

/** The phone's Private DNS (issue 54 item 4): the policy names the kid's filter hostname; the phone's reports and their transitions. */
describe.each(DIALECTS)("Private DNS on %s", (dialect) => {
  let h: Harness;
  let kid: { profileId: string; deviceId: string };
  let expected: string;
  const heard: PrivateDnsTransition[] = [];
  beforeAll(async () => {
    h = await startHarness({ dialect });
    h.runtime.deps.privateDnsDomain = DOMAIN;
    h.runtime.deps.onPrivateDnsTransition = (t) => void heard.push(t);
    kid = await h.kid(MIA);
    expected = `${await ensureFilterId(h.tdb.db, kid.profileId)}.${DOMAIN}`;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
  const stored = () =>
    h.tdb.db
      .selectFrom("device_status")
      .select(["private_dns_mode", "private_dns_hostname", "private_dns_changed_at"])
      .where("device_id", "=", kid.deviceId)
      .executeTakeFirstOrThrow();

  it("the policy names the kid's filter hostname; the phone sets it and reports it (no transition: it is the filter)", async () => {
    const phone = await h.phone(MIA);
    try {
      expect(phone.statusData().privateDns).toBeUndefined();
      await applyPolicy(h.runtime.deps, kid.deviceId);
      expect((await latestPolicy(h.tdb.db, kid.deviceId))!.doc.privateDns).toEqual({ hostname: expected });
      await waitFor(async () => (await stored()).private_dns_hostname === expected);
      expect(await stored()).toMatchObject({ private_dns_mode: "hostname" });
      expect(phone.state.privateDns).toEqual({ mode: "hostname", hostname: expected });
      expect(heard).toEqual([]);
      expect((await readPrivateDnsView(h.tdb.db, { ...kid }, (id) => `${id}.${DOMAIN}`)).verdict).toBe("ok");
    } finally {
      await phone.close();
    }
  });

  it("reports and transitions, table-driven: off → changed once, another server stays changed, the filter again → restored", async () => {
    const phone = await h.phone(MIA);
    try {
      const steps = [
        { state: { mode: "off" }, stored: ["off", null], heard: ["changed"], verdict: "changed" },
        { state: { mode: "off" }, stored: ["off", null], heard: [], verdict: "changed" },
        { state: { mode: "hostname", hostname: "dns.google" }, stored: ["hostname", "dns.google"], heard: [], verdict: "changed" },
        { state: { mode: "opportunistic" }, stored: ["opportunistic", null], heard: [], verdict: "changed" },
        {
          state: { mode: "hostname", hostname: expected.toUpperCase() },
          stored: ["hostname", expected],
          heard: ["restored"],
          verdict: "ok",
        },
      ] as const;
      for (const step of steps) {
        heard.length = 0;
        const before = await stored();
        await phone.setPrivateDns(step.state);
        await phone.send("child_status", phone.statusData()); // the same again: no second transition, no new changed_at
        const now = await stored();
        expect([now.private_dns_mode, now.private_dns_hostname], JSON.stringify(step.state)).toEqual(step.stored);
        if (JSON.stringify(step.stored) === JSON.stringify([before.private_dns_mode, before.private_dns_hostname]))
          expect(now.private_dns_changed_at).toBe(before.private_dns_changed_at);
        expect(heard.map((t) => t.kind)).toEqual(step.heard);
        for (const t of heard) expect(t).toMatchObject({ deviceId: kid.deviceId, profileId: kid.profileId, expected });
        const view = await readPrivateDnsView(h.tdb.db, { ...kid }, (id) => `${id}.${DOMAIN}`);
        expect(view.verdict).toBe(step.verdict);
      }
    } finally {
      await phone.close();
    }
  });

  it("the alert event of a transition: tamper.private-dns when the phone leaves the filter, none when it comes back", () => {
    const t: PrivateDnsTransition = {
      kind: "changed",
      deviceId: "d1",
      profileId: "k1",
      expected: `x.${DOMAIN}`,
      state: { mode: "off" },
      at: "2026-11-29T03:00:00.000Z",
    };
    expect(privateDnsAlertEvent(t)).toEqual({
      eventId: "tamper.private-dns:d1:2026-11-29T03:00:00.000Z",
      kind: "tamper.private-dns",
      profileId: "k1",
      deviceId: "d1",
      at: t.at,
      details: { mode: "off", hostname: "", expected: `x.${DOMAIN}` },
    });
    expect(privateDnsAlertEvent({ ...t, kind: "restored" })).toBeNull();
  });

  it("refuses a malformed report and stores nothing of it; a status without privateDns (an older kids app) still passes", async () => {
    const phone = await h.phone(MIA);
    try {
      const before = await stored();
      for (const privateDns of [
        { mode: "hostname" },
        { mode: "hostname", hostname: "a".repeat(300) },
        { mode: "bogus" },
        { mode: "hostname", hostname: "x y" },
      ])
        await expect(phone.send("child_status", { ...phone.statusData(), privateDns })).rejects.toThrow(
          /^INVALID: The frame does not match the protocol/,
        );
      const { privateDns: _omit, ...older } = phone.statusData();
      await phone.send("child_status", older);
      expect(await stored()).toEqual(before);
    } finally {
      await phone.close();
    }
  });

  it("no hostname in the policy when the kid's filter id is revoked, or the web filter is off", async () => {
    await revokeFilterId(h.tdb.db, kid.profileId);
    await applyPolicy(h.runtime.deps, kid.deviceId);
    expect((await latestPolicy(h.tdb.db, kid.deviceId))!.doc).not.toHaveProperty("privateDns");
    const fresh = await ensureFilterId(h.tdb.db, kid.profileId);
    await applyPolicy(h.runtime.deps, kid.deviceId);
    expect((await latestPolicy(h.tdb.db, kid.deviceId))!.doc.privateDns).toEqual({ hostname: `${fresh}.${DOMAIN}` });
    h.runtime.deps.privateDnsDomain = undefined;
    try {
      await applyPolicy(h.runtime.deps, kid.deviceId);
      expect((await latestPolicy(h.tdb.db, kid.deviceId))!.doc).not.toHaveProperty("privateDns");
    } finally {
      h.runtime.deps.privateDnsDomain = DOMAIN;
    }
  });
});
