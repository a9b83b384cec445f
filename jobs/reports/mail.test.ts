import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../../db/index.testing";
import { buildDueReports } from "./build";
import { CHART_CIDS, type ReportMail } from "./mail";
import { PNG_SIGNATURE } from "./png";
import { addUsage, makeFamily } from "./reports.testing";

describe.each(DIALECTS)("report mail on %s", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t?.destroy();
  });

  it("carries the charts as PNG images referenced by cid from the HTML, keeps the numbers in text and tables, and stores the PNGs with the report", async () => {
    const f = await makeFamily(t.db, { name: "Mia", kind: "Weekly", tz: "UTC" });
    await addUsage(t.db, f.deviceId, [
      ["2026-11-17T12:00Z", "com.mojang.minecraftpe", 75],
      ["2026-11-19T12:00Z", "org.khanacademy.android", 20],
    ]);
    const sent: ReportMail[] = [];
    const mailer = async (m: ReportMail) => {
      sent.push(m);
      return true;
    };
    const summary = await buildDueReports(
      { db: t.db, mailer, secret: "s".repeat(40), publicUrl: "https://portal.example" },
      { now: new Date("2026-11-23T06:00:00Z") },
    );
    expect(summary).toMatchObject({ built: 1, mailed: 1 });
    expect(sent).toHaveLength(1);
    const mail = sent[0];
    expect(mail.attachments.map((a) => [a.contentType, a.cid])).toEqual([
      ["image/png", CHART_CIDS.bar],
      ["image/png", CHART_CIDS.pie],
    ]);
    for (const a of mail.attachments) {
      expect(Buffer.isBuffer(a.content)).toBe(true);
      expect((a.content as Buffer).subarray(0, 8)).toEqual(PNG_SIGNATURE);
      expect(mail.html).toMatch(new RegExp(`<img src="cid:${a.cid}" alt="(Bar|Pie) chart of [^"]+"`));
    }
    expect(mail.text).toContain("Total screen time: 1h 35m");
    expect(mail.text).toContain("Tuesday: 1h 15m");
    expect(mail.html).toContain("1h 15m</td>");

    // Stored with the report: a second send (a retry, a delegate's copy) carries the very same bytes.
    const row = await t.db.selectFrom("reports").select(["id", "bar_png", "pie_png"]).executeTakeFirstOrThrow();
    expect(Buffer.from(row.bar_png!).equals(mail.attachments[0].content as Buffer)).toBe(true);
    expect(Buffer.from(row.pie_png!).equals(mail.attachments[1].content as Buffer)).toBe(true);
    await t.db.updateTable("reports").set({ mail_state: "pending" }).where("id", "=", row.id).execute();
    await buildDueReports({ db: t.db, mailer }, { now: new Date("2026-11-23T07:00:00Z") });
    expect(sent).toHaveLength(2);
    expect((sent[1].attachments[0].content as Buffer).equals(mail.attachments[0].content as Buffer)).toBe(true);
  });
});
