import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findReport, reportView } from "../../db/queries/reports";
import { createTestDb, DIALECTS, type TestDb } from "../../db/index.testing";
import { buildDueReports } from "./build";
import { addUsage, makeFamily } from "./reports.testing";

const MINECRAFT = "com.mojang.minecraftpe";
const KHAN = "org.khanacademy.android";

describe.each(DIALECTS)("report job on %s", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t?.destroy();
  });

  const reportsOf = (profileId: string) =>
    t.db
      .selectFrom("reports")
      .select(["id", "kind", "period_start", "period_end", "total_minutes", "mail_state"])
      .where("profile_id", "=", profileId)
      .orderBy("period_start")
      .execute();

  it("builds one report per kid when its week closes in the family's time zone (London and New York), with numbers from the usage tables", async () => {
    const london = await makeFamily(t.db, { name: "Mia", kind: "Weekly", tz: "Europe/London" });
    const ny = await makeFamily(t.db, { name: "Leo", kind: "Weekly", tz: "America/New_York" });
    for (const f of [london, ny]) {
      await addUsage(t.db, f.deviceId, [
        ["2026-11-09T12:00Z", MINECRAFT, 40], // the week before (both zones)
        ["2026-11-16T03:00Z", MINECRAFT, 30], // Mon 16 in London; Sun 15, 22:00 in New York
        ["2026-11-17T15:00Z", MINECRAFT, 60], // Tue, reaches Minecraft's 60-minute limit
        ["2026-11-17T16:00Z", KHAN, 25],
        ["2026-11-22T23:00Z", KHAN, 10], // Sun 22 in both zones
        ["2026-11-23T02:00Z", KHAN, 15], // Mon 23 in London; Sun 22, 21:00 in New York
      ]);
    }

    // Sunday 23:30 UTC: neither week of Nov 16–22 has closed.
    await buildDueReports({ db: t.db }, { now: new Date("2026-11-22T23:30:00Z") });
    expect((await reportsOf(london.profileId)).map((r) => r.period_start)).toEqual(["2026-11-09"]);
    expect((await reportsOf(ny.profileId)).map((r) => r.period_start)).toEqual(["2026-11-09"]);

    // Monday 00:30 London: London's week closed; New York is still on Sunday evening. Run twice: nothing doubles.
    await buildDueReports({ db: t.db }, { now: new Date("2026-11-23T00:30:00Z") });
    await buildDueReports({ db: t.db }, { now: new Date("2026-11-23T00:45:00Z") });
    expect((await reportsOf(london.profileId)).map((r) => r.period_start)).toEqual(["2026-11-09", "2026-11-16"]);
    expect((await reportsOf(ny.profileId)).map((r) => r.period_start)).toEqual(["2026-11-09"]);

    // Monday 05:30 UTC = 00:30 in New York: its week closed too.
    const summary = await buildDueReports({ db: t.db }, { now: new Date("2026-11-23T05:30:00Z") });
    expect(summary).toMatchObject({ kids: 2, built: 1, existing: 1 });
    const [, londonWeek] = await reportsOf(london.profileId);
    const [, nyWeek] = await reportsOf(ny.profileId);
    expect(londonWeek).toMatchObject({ kind: "Weekly", period_end: "2026-11-23", total_minutes: 30 + 60 + 25 + 10, mail_state: "pending" });
    expect(nyWeek).toMatchObject({ kind: "Weekly", period_start: "2026-11-16", total_minutes: 60 + 25 + 10 + 15 });

    const l = reportView((await findReport(t.db, londonWeek.id))!);
    expect(l.title).toBe("Mia's weekly report: Nov 16 – Nov 22, 2026");
    expect(l.previousMinutes).toBe(40);
    expect(l.dailyUsage.map((d) => [d.name, d.minutes])).toEqual([
      ["Monday", 30],
      ["Tuesday", 85],
      ["Wednesday", 0],
      ["Thursday", 0],
      ["Friday", 0],
      ["Saturday", 0],
      ["Sunday", 10],
    ]);
    expect(l.topApps.map((a) => [a.name, a.minutes])).toEqual([
      ["Minecraft", 90],
      ["Khan Academy", 35],
    ]);
    expect(l.topCategories.map((c) => [c.name, c.minutes])).toEqual([
      ["Arcade", 90],
      ["Education", 35],
    ]);
    expect(l.limitsHit).toEqual([{ kind: "app", name: "Minecraft", day: "2026-11-17", minutes: 60, limit: 60 }]);
    const n = reportView((await findReport(t.db, nyWeek.id))!);
    expect(n.dailyUsage.map((d) => d.minutes)).toEqual([0, 85, 0, 0, 0, 0, 25]);
    expect(n.previousMinutes).toBe(40 + 30);
    const row = await findReport(t.db, nyWeek.id);
    expect(row!.bar_svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(row!.pie_svg).toContain("<path");
  });

  it("builds a monthly report when the month closes in Tokyo, not before; answered requests are in it", async () => {
    const tokyo = await makeFamily(t.db, { name: "Yui", kind: "Monthly", tz: "Asia/Tokyo" });
    await addUsage(t.db, tokyo.deviceId, [
      ["2026-10-31T14:00Z", KHAN, 5], // Oct 31, 23:00 in Tokyo
      ["2026-10-31T15:00Z", KHAN, 20], // Nov 1, 00:00 in Tokyo
      ["2026-11-15T03:00Z", MINECRAFT, 45],
      ["2026-11-30T14:00Z", MINECRAFT, 12], // Nov 30, 23:00
      ["2026-11-30T15:00Z", MINECRAFT, 50], // Dec 1 in Tokyo
    ]);
    await t.db
      .insertInto("app_requests")
      .values([
        {
          id: "r1",
          profile_id: tokyo.profileId,
          device_id: tokyo.deviceId,
          package_name: MINECRAFT,
          request_type: "Extend Time",
          status: "Approved",
          extended_time: 15,
          remarks: null,
          created_at: "2026-11-10T00:00:00.000Z",
          updated_at: "2026-11-10T01:00:00.000Z",
        },
        {
          id: "r2",
          profile_id: tokyo.profileId,
          device_id: tokyo.deviceId,
          package_name: KHAN,
          request_type: "App Install",
          status: "Pending",
          extended_time: 0,
          remarks: null,
          created_at: "2026-11-11T00:00:00.000Z",
          updated_at: "2026-11-11T00:00:00.000Z",
        },
      ])
      .execute();
    await buildDueReports({ db: t.db }, { now: new Date("2026-11-30T14:30:00Z") });
    expect((await reportsOf(tokyo.profileId)).map((r) => r.period_start)).toEqual(["2026-10-01"]);
    await buildDueReports({ db: t.db }, { now: new Date("2026-11-30T15:30:00Z") });
    const rows = await reportsOf(tokyo.profileId);
    expect(rows.map((r) => [r.kind, r.period_start, r.period_end, r.total_minutes])).toEqual([
      ["Monthly", "2026-10-01", "2026-11-01", 5],
      ["Monthly", "2026-11-01", "2026-12-01", 20 + 45 + 12],
    ]);
    const nov = reportView((await findReport(t.db, rows[1].id))!);
    expect(nov.title).toBe("Yui's monthly report: November 2026");
    expect(nov.dailyUsage).toHaveLength(30);
    expect(nov.dailyUsage[0]).toEqual({ day: "2026-11-01", name: "Sun, Nov 1", minutes: 20 });
    expect(nov.requestsAnswered).toEqual([
      { packageName: MINECRAFT, name: "Minecraft", type: "Extend Time", status: "Approved", at: "2026-11-10T01:00:00.000Z" },
    ]);
  });

  it("builds nothing when the frequency is Off, and keeps the reports already built", async () => {
    const f = await makeFamily(t.db, { name: "Ada", kind: "Weekly", tz: "UTC" });
    await addUsage(t.db, f.deviceId, [["2026-11-10T10:00Z", KHAN, 30]]);
    await buildDueReports({ db: t.db }, { now: new Date("2026-11-16T01:00:00Z") });
    await t.db.updateTable("parents").set({ kids_report_type: "Off" }).where("id", "=", f.parent.id).execute();
    const summary = await buildDueReports({ db: t.db }, { now: new Date("2026-11-23T01:00:00Z") });
    expect(summary).toMatchObject({ kids: 0, built: 0 });
    expect((await reportsOf(f.profileId)).map((r) => [r.period_start, r.total_minutes])).toEqual([["2026-11-09", 30]]);
  });

  it("a run killed after two kids, then run again, leaves every report built exactly once", async () => {
    const kids = [];
    for (let i = 0; i < 5; i++) {
      const f = await makeFamily(t.db, { name: `Kid${i}`, kind: "Weekly", tz: i % 2 ? "America/New_York" : "UTC" });
      await addUsage(t.db, f.deviceId, [["2026-11-18T12:00Z", KHAN, 10 + i]]);
      kids.push(f);
    }
    const now = new Date("2026-11-23T06:00:00Z");
    await expect(
      buildDueReports(
        { db: t.db },
        {
          now,
          afterKid: (done) => {
            if (done === 2) throw new Error("killed");
          },
        },
      ),
    ).rejects.toThrow("killed");
    expect(await t.db.selectFrom("reports").select("id").execute()).toHaveLength(2);
    const rerun = await buildDueReports({ db: t.db }, { now });
    expect(rerun).toMatchObject({ kids: 5, built: 3, existing: 2 });
    for (const [i, k] of kids.entries())
      expect((await reportsOf(k.profileId)).map((r) => [r.period_start, r.total_minutes])).toEqual([["2026-11-16", 10 + i]]);
  });

  it("back-fills every closed period since a date without mail, and skips periods before the kid joined", async () => {
    const f = await makeFamily(t.db, { name: "Bo", kind: "Weekly", tz: "UTC", joined: "2026-10-28T00:00:00.000Z" });
    const summary = await buildDueReports({ db: t.db }, { now: new Date("2026-11-23T06:00:00Z"), since: "2026-10-01" });
    expect(summary.built).toBe(4);
    expect((await reportsOf(f.profileId)).map((r) => [r.period_start, r.mail_state])).toEqual([
      ["2026-10-26", "none"],
      ["2026-11-02", "none"],
      ["2026-11-09", "none"],
      ["2026-11-16", "none"],
    ]);
  });
});
