import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "#core/ids.server";
import { createParent } from "#db/queries/parents";
import { createTestDb, type TestDb } from "#db/index.testing";
import { buildDueReports } from "#jobs/reports/build";
import { addUsage, makeFamily } from "#jobs/reports/reports.testing";
import { parseEnv } from "#core/env.server";
import { PNG_SIGNATURE } from "#jobs/reports/png";
import { sendMail } from "./mail.server";

/** One MIME part's decoded body (7bit, quoted-printable or base64), found by its content type. */
function part(raw: string, contentType: string): { headers: string; body: string } | undefined {
  const at = raw.toLowerCase().indexOf(`content-type: ${contentType}`);
  if (at < 0) return undefined;
  const headEnd = raw.indexOf("\r\n\r\n", at);
  const headers = raw.slice(at, headEnd);
  const next = raw.indexOf("\r\n--", headEnd);
  let body = raw.slice(headEnd + 4, next < 0 ? undefined : next);
  if (/content-transfer-encoding: quoted-printable/i.test(headers))
    body = Buffer.from(
      body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  else if (/content-transfer-encoding: base64/i.test(headers)) body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return { headers, body };
}

/** Every inline image part: its Content-ID and decoded bytes. */
function imageParts(raw: string): { contentType: string; cid: string; bytes: Buffer }[] {
  const boundaries = [...raw.matchAll(/boundary="?([^"\r\n;]+)"?/gi)].map((m) => m[1]);
  const parts = boundaries.flatMap((b) => raw.split(`--${b}`)).filter((p) => /^\r\ncontent-type: image\//i.test(p));
  return parts.map((p) => {
    const split = p.indexOf("\r\n\r\n");
    const head = p.slice(0, split).replace(/\r\n[ \t]+/g, " ");
    return {
      contentType: /content-type: ([^;\r\n]+)/i.exec(head)![1],
      cid: /content-id: <([^>]+)>/i.exec(head)?.[1] ?? "",
      bytes: Buffer.from(p.slice(split + 4).replace(/\s+/g, ""), "base64"),
    };
  });
}

// Report mails through the real adapter (nodemailer, SMTP_URL) to a real local SMTP server.
describe("report mail over SMTP", () => {
  let t: TestDb;
  let smtp: SMTPServer;
  let port = 0;
  const received: { to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    t = await createTestDb("sqlite");
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
          callback();
        });
      },
    });
    smtp.on("error", () => {});
    await new Promise<void>((resolve, reject) => {
      smtp.once("error", reject);
      smtp.listen(0, "127.0.0.1", () => resolve());
    });
    port = (smtp.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await t?.destroy();
  });

  it("mails the parent and each accepted delegate: summary, inline chart images, a plain-text part, a /report link from PUBLIC_URL, an unsubscribe link", async () => {
    const env = parseEnv({
      NODE_ENV: "test",
      SESSION_SECRET: "k".repeat(40),
      DATA_DIR: "/tmp/kids-portal-report-mail",
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      PUBLIC_URL: "https://portal.example",
    });
    const f = await makeFamily(t.db, { name: "Mia", kind: "Weekly", tz: "UTC" });
    await addUsage(t.db, f.deviceId, [["2026-11-18T12:00Z", "com.mojang.minecraftpe", 75]]);
    const delegate = await createParent(t.db, { email: "grandma@example.com", name: "Grandma", passwordHash: null });
    const now = nowIso();
    for (const [email, status] of [
      [delegate.email, "Accepted"],
      ["pending@example.com", "Pending"],
    ] as const) {
      const id = newId();
      await t.db
        .insertInto("delegations")
        .values({
          id,
          owner_parent_id: f.parent.id,
          delegate_email: email,
          delegate_name: email.split("@")[0],
          status,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await t.db.insertInto("delegation_kids").values({ delegation_id: id, profile_id: f.profileId }).execute();
    }
    const db = t.db;
    const log = () => {};
    const summary = await buildDueReports(
      { db, log, publicUrl: "https://portal.example", secret: env.SESSION_SECRET, mailer: (m) => sendMail({ env, db, log }, m) },
      { now: new Date("2026-11-23T06:00:00Z") },
    );
    expect(summary).toMatchObject({ built: 1, mailed: 1 });
    expect(received.map((r) => r.to[0]).sort()).toEqual(["grandma@example.com", f.parent.email].sort());
    const report = await t.db.selectFrom("reports").select(["id", "mail_state"]).executeTakeFirstOrThrow();
    expect(report.mail_state).toBe("sent");

    for (const mail of received) {
      expect(mail.raw).toMatch(/Subject: Mia's weekly report: Nov 16 – Nov 22, 2026|Subject: =\?UTF-8\?/);
      const text = part(mail.raw, "text/plain")!;
      expect(text.body).toContain("Total screen time: 1h 15m");
      expect(text.body).toContain(`Read the whole report: https://portal.example/report?id=${report.id}`);
      expect(text.body).toMatch(/To stop these reports, open: https:\/\/portal\.example\/reports\/unsubscribe\?parent=\w+&sig=[\w-]+/);
      const html = part(mail.raw, "text/html")!;
      // The charts: PNG images (mail clients show no SVG) referenced by Content-ID, with alt texts.
      const images = imageParts(mail.raw);
      expect(images.map((i) => [i.contentType, i.cid])).toEqual([
        ["image/png", "daily-use@report"],
        ["image/png", "categories@report"],
      ]);
      for (const img of images) {
        expect(img.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
        expect(html.body).toMatch(new RegExp(`<img src="cid:${img.cid}" alt="[^"]*chart[^"]*"`));
      }
      expect(mail.raw).not.toContain("image/svg+xml");
    }

    // A second run mails nothing again.
    const again = await buildDueReports(
      { db, log, publicUrl: "https://portal.example", secret: env.SESSION_SECRET, mailer: (m) => sendMail({ env, db, log }, m) },
      { now: new Date("2026-11-23T07:00:00Z") },
    );
    expect(again).toMatchObject({ built: 0, mailed: 0 });
    expect(received).toHaveLength(2);
  });
});
