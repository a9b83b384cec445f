import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { startHarness, type Harness } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";
const HOUR = 3_600_000;
const DAY = 86_400_000;

const hourAt = (ms: number) => new Date(Math.floor(ms / HOUR) * HOUR).toISOString();

/** Issue 9 item 10: telemetry stays physical. */
describe.each(DIALECTS)("usage telemetry on %s", (dialect) => {
  let h: Harness;
  let deviceId: string;
  const enrolledAt = Math.floor((Date.now() - 10 * DAY) / HOUR) * HOUR;

  const stored = async (pkgPrefix: string) =>
    (
      await h.tdb.db
        .selectFrom("app_usage_hourly")
        .select(["hour", "package_name", "minutes"])
        .where("device_id", "=", deviceId)
        .where("package_name", "like", `${pkgPrefix}%`)
        .orderBy("hour")
        .orderBy("package_name")
        .execute()
    ).map((r) => [r.hour, r.package_name, r.minutes]);

  beforeAll(async () => {
    h = await startHarness({ dialect });
    deviceId = (await h.kid(MIA)).deviceId;
    // The phone was first enrolled ten days ago.
    await h.tdb.db
      .updateTable("devices")
      .set({ created_at: new Date(enrolledAt).toISOString() })
      .where("id", "=", deviceId)
      .execute();
    // Start from a phone with no usage so that the hours below hold only what the tests send.
    await h.tdb.db.deleteFrom("app_usage_hourly").where("device_id", "=", deviceId).execute();
    await h.tdb.db.deleteFrom("app_usage_daily").where("device_id", "=", deviceId).execute();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("refuses buckets outside [enrollment − 1 day, now + 1 day] with a protocol error; nothing of the frame is stored", async () => {
    const phone = await h.phone(MIA);
    const far = ["0001-01-01T00:00:00Z", "9999-12-31T23:00:00Z", hourAt(enrolledAt - DAY - HOUR), hourAt(Date.now() + DAY + 2 * HOUR)];
    for (const hour of far) {
      await expect(
        phone.send("usage", {
          buckets: [
            { packageName: "com.range.ok", hour: hourAt(Date.now()), minutes: 5 },
            { packageName: "com.range.far", hour, minutes: 5 },
          ],
        }),
      ).rejects.toMatchObject({
        code: "OUT_OF_RANGE",
        message: expect.stringMatching(/a day before the phone was enrolled/),
      });
    }
    expect(await stored("com.range.")).toEqual([]);
    expect(
      await h.tdb.db
        .selectFrom("app_usage_daily")
        .select("day")
        .where("device_id", "=", deviceId)
        .where("package_name", "like", "com.range.%")
        .execute(),
    ).toEqual([]);
    // The edges themselves are fine: a day before enrollment, and a day ahead (a phone's clock may be off).
    const early = hourAt(enrolledAt - DAY);
    const ahead = hourAt(Date.now() + DAY - HOUR);
    await phone.send("usage", {
      buckets: [
        { packageName: "com.range.edge", hour: early, minutes: 5 },
        { packageName: "com.range.edge", hour: ahead, minutes: 6 },
      ],
    });
    expect(await stored("com.range.")).toEqual([
      [early, "com.range.edge", 5],
      [ahead, "com.range.edge", 6],
    ]);
  });

  it("refuses an hour over 60 minutes for one app, or for the whole phone together with what is stored", async () => {
    const phone = await h.phone(MIA);
    const hour = hourAt(Date.now() - 3 * DAY);
    await expect(phone.send("usage", { buckets: [{ packageName: "com.hour.a", hour, minutes: 61 }] })).rejects.toMatchObject({
      code: "INVALID",
    });
    // Two apps in one frame: 40 + 30 minutes in the same hour.
    await expect(
      phone.send("usage", {
        buckets: [
          { packageName: "com.hour.a", hour, minutes: 40 },
          { packageName: "com.hour.b", hour, minutes: 30 },
        ],
      }),
    ).rejects.toMatchObject({ code: "TOO_MANY_MINUTES", message: expect.stringMatching(/at most 60 minutes/) });
    expect(await stored("com.hour.")).toEqual([]);
    // One app stored, then another on top of it in a later frame.
    await phone.send("usage", { buckets: [{ packageName: "com.hour.a", hour, minutes: 40 }] });
    await expect(phone.send("usage", { buckets: [{ packageName: "com.hour.b", hour, minutes: 21 }] })).rejects.toMatchObject({
      code: "TOO_MANY_MINUTES",
    });
    expect(await stored("com.hour.")).toEqual([[hour, "com.hour.a", 40]]);
    // Exactly 60 is an hour fully used; a bucket re-sent with a smaller value replaces the old one.
    await phone.send("usage", { buckets: [{ packageName: "com.hour.b", hour, minutes: 20 }] });
    await phone.send("usage", {
      buckets: [
        { packageName: "com.hour.a", hour, minutes: 10 },
        { packageName: "com.hour.b", hour, minutes: 50 },
      ],
    });
    expect(await stored("com.hour.")).toEqual([
      [hour, "com.hour.a", 10],
      [hour, "com.hour.b", 50],
    ]);
    const daily = await h.tdb.db
      .selectFrom("app_usage_daily")
      .select(["package_name", "minutes"])
      .where("device_id", "=", deviceId)
      .where("package_name", "like", "com.hour.%")
      .orderBy("package_name")
      .execute();
    expect(daily).toEqual([
      { package_name: "com.hour.a", minutes: 10 },
      { package_name: "com.hour.b", minutes: 50 },
    ]);
    // The socket stays up after refusals.
    expect(phone.connected).toBe(true);
  });
});
