import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../index.testing";
import { seedDemo } from "./index";

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Issue 9 item 10: the demo family's usage is what a phone could have sent (the protocol refuses anything else). */
describe.each(DIALECTS)("demo seed on %s", (dialect) => {
  let t: TestDb;
  // Ten past noon: the current hour has had ten minutes so far.
  const now = new Date("2026-03-10T12:10:00.000Z");

  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db, now);
  }, 60_000);
  afterAll(async () => {
    await t?.destroy();
  });

  it("every usage hour lies within [enrollment − 1 day, now], the phone's enrollment date included", async () => {
    const devices = await t.db.selectFrom("devices").select(["id", "created_at"]).execute();
    expect(devices).toHaveLength(2);
    for (const d of devices) {
      const range = await t.db
        .selectFrom("app_usage_hourly")
        .select([sql<string>`min(hour)`.as("first"), sql<string>`max(hour)`.as("last")])
        .where("device_id", "=", d.id)
        .executeTakeFirstOrThrow();
      expect(Date.parse(range.first)).toBeGreaterThanOrEqual(Math.floor((Date.parse(d.created_at) - DAY) / HOUR) * HOUR);
      expect(Date.parse(range.last)).toBeLessThanOrEqual(now.getTime());
    }
  });

  it("no hour holds more than 60 minutes for a phone, and the current hour no more than has passed of it", async () => {
    const hours = await t.db
      .selectFrom("app_usage_hourly")
      .select(["device_id", "hour", sql<number>`sum(minutes)`.as("minutes")])
      .groupBy(["device_id", "hour"])
      .execute();
    expect(hours.length).toBeGreaterThan(100);
    expect(Math.max(...hours.map((r) => Number(r.minutes)))).toBeLessThanOrEqual(60);
    const current = hours.filter((r) => r.hour === "2026-03-10T12:00:00.000Z");
    for (const r of current) expect(Number(r.minutes)).toBeLessThanOrEqual(10);
  });

  it("the daily rollup is the sum of the hours", async () => {
    const fromHours = await t.db
      .selectFrom("app_usage_hourly")
      .select(["device_id", "package_name", sql<string>`substr(hour, 1, 10)`.as("day"), sql<number>`sum(minutes)`.as("minutes")])
      .groupBy(["device_id", "package_name", sql`substr(hour, 1, 10)`])
      .execute();
    const daily = await t.db.selectFrom("app_usage_daily").select(["device_id", "package_name", "day", "minutes"]).execute();
    const key = (r: { device_id: string; package_name: string; day: string }) => `${r.device_id}|${r.package_name}|${r.day}`;
    expect(new Map(daily.map((r) => [key(r), Number(r.minutes)]))).toEqual(new Map(fromHours.map((r) => [key(r), Number(r.minutes)])));
  });
});
