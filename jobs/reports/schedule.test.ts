import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/index";
import { createTestDb, type TestDb } from "../../db/index.testing";
import { createLocalBus } from "../../device-service/bus";
import { createDeviceRuntime, type DeviceRuntime } from "../../device-service/runtime";
import type { BullRunner } from "../bullmq";
import { startJobSide } from "../lifecycle";
import { REPORTS_SCHEDULE } from "../recover";
import { createRunner } from "../runner";
import type { ReportMail } from "./mail";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Start-up re-derivation through the real runtime: in-process on SQLite, BullMQ on real Redis with PostgreSQL.
describe.each([
  { runner: "in-process", dialect: "sqlite" as const },
  { runner: "bullmq", dialect: "postgres" as const },
])("report jobs at start-up ($runner runner, $dialect)", ({ runner, dialect }) => {
  let t: TestDb | undefined;
  let runtime: DeviceRuntime | undefined;
  afterEach(async () => {
    await runtime?.close();
    await t?.destroy();
  });

  it("builds the demo kids' reports of the last closed week and mails the parent, once; the hourly tick is scheduled", async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db);
    const mails: ReportMail[] = [];
    const start = () => {
      const redisUrl = runner === "bullmq" ? REDIS : undefined;
      const jobs = createRunner({ redisUrl, prefix: `test-${randomBytes(4).toString("hex")}` });
      return createDeviceRuntime({
        db: t!.db,
        bus: createLocalBus(),
        log: () => {},
        redisUrl,
        jobs,
        startJobs: (deps) => startJobSide(deps, jobs),
        publicUrl: "https://portal.example",
        reports: {
          secret: "s".repeat(40),
          mailer: async (m) => {
            mails.push(m);
            return true;
          },
        },
      });
    };
    runtime = await start();
    const reports = await until(
      () =>
        t!.db
          .selectFrom("reports")
          .innerJoin("kid_profiles", "kid_profiles.id", "reports.profile_id")
          .select(["kid_profiles.name", "reports.kind", "reports.mail_state"])
          .orderBy("kid_profiles.name")
          .execute(),
      (rows) => rows.length === 2 && rows.every((r) => r.mail_state === "sent"),
    );
    expect(reports.map((r) => [r.name, r.kind])).toEqual([
      ["Leo", "Weekly"],
      ["Mia", "Weekly"],
    ]);
    expect(mails.map((m) => m.to).sort()).toEqual(["demo@kids-portal.test", "demo@kids-portal.test"]);
    expect(mails[0]!.text).toContain("https://portal.example/report?id=");
    expect(mails[0]!.text).toContain("https://portal.example/reports/unsubscribe?parent=");

    if (runner === "bullmq") {
      const queue = (runtime.jobs as BullRunner).queues.find((q) => q.name === "reports")!;
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => [s.key, Number(s.every)])).toEqual([[REPORTS_SCHEDULE.id, REPORTS_SCHEDULE.everyMs]]);
    }

    // A restart re-derives again: nothing is built or mailed twice.
    await runtime.close();
    runtime = await start();
    await until(
      async () =>
        ((await runtime!.jobs.counts()).find((c) => c.name === "reports")?.completed ?? 0) +
        ((await runtime!.jobs.counts()).find((c) => c.name === "reports")?.failed ?? 0),
      (n) => n >= 1,
    );
    expect(await t.db.selectFrom("reports").select("id").execute()).toHaveLength(2);
    expect(mails).toHaveLength(2);
  });
});
