import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { newId, nowIso } from "../core/ids.server";
import { DEVICE_LOG_MAX_BYTES, DEVICE_LOG_PAGE_SIZE, TELEMETRY_LIMITS } from "../core/limits";
import { startHarness, type Harness } from "../server/harness.testing";
import type { SimulatedPhone } from "./simulator/phone";
import { createTelemetryLimiter } from "./socket/telemetry-limits";
import type { DeviceRef } from "./socket/telemetry";

// Issue 52, finding 2: a phone stored 5,000 notifications in 1.3 s and 48 MB of device logs in 0.8 s. Now each kind
// has a rate and a daily cap per phone and a device log a size cap: over them the phone is told (an error frame
// for that message, so it stops resending it) and nothing more is stored; nothing stored before is lost.
const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

type Outcome = { ok: number; refused: Record<string, number>; retryAfter: number[] };

/** Sends every frame at once (as the flood did) and sorts the answers; every frame must get one. */
async function flood(phone: SimulatedPhone, frames: { event: "notification" | "device_log"; data: unknown }[]): Promise<Outcome> {
  const answers = await Promise.allSettled(frames.map((f) => phone.send(f.event, f.data)));
  const out: Outcome = { ok: 0, refused: {}, retryAfter: [] };
  for (const a of answers) {
    if (a.status === "fulfilled") out.ok++;
    else {
      const code = (a.reason as { code?: string }).code ?? "?";
      out.refused[code] = (out.refused[code] ?? 0) + 1;
    }
  }
  expect(phone.unanswered()).toBe(0);
  return out;
}

describe.each(DIALECTS)("per-phone telemetry limits on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const countOf = async (table: "notifications" | "device_logs", deviceId: string) =>
    (await h.tdb.db.selectFrom(table).select("id").where("device_id", "=", deviceId).execute()).map((r) => r.id);

  it("5,000 notifications at once: a minute's worth is stored, the rest answered RATE_LIMITED; what was stored stays", async () => {
    const phone = await h.phone(LEO);
    const dev = phone.deviceId!;
    await phone.send("notification", { type: "low_battery", message: "Before the flood." });
    const before = await countOf("notifications", dev);
    expect(before.length).toBeGreaterThan(0);

    const r = await flood(
      phone,
      Array.from({ length: 5_000 }, (_, i) => ({ event: "notification" as const, data: { type: "flood", message: `flood ${i}` } })),
    );
    const perMinute = TELEMETRY_LIMITS.notification.perMinute;
    // The bucket held a minute's worth less the one sent before; it refills at one a second while the flood is answered.
    expect(r.ok).toBeGreaterThanOrEqual(perMinute - 1);
    expect(r.ok).toBeLessThanOrEqual(perMinute + 10);
    expect(r.refused).toEqual({ RATE_LIMITED: 5_000 - r.ok });
    const after = await countOf("notifications", dev);
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after.length).toBe(before.length + r.ok);
    // The refusal says why and when to try again, and the flood is logged once, not 5,000 times. A burst of more than
    // the bucket can refill meanwhile (one a second, however slow the machine) meets refusals.
    const burst = await Promise.all(
      Array.from({ length: perMinute + 5 }, (_, i) =>
        phone.send("notification", { type: "flood", message: `one more ${i}` }).then(
          () => null,
          (e: Error) => e,
        ),
      ),
    );
    const refusals = burst.filter((e): e is Error => e !== null);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]!.message).toMatch(/^RATE_LIMITED: This phone sent more than 60 notifications in a minute; this one was not stored/);
    expect(h.logs.filter((l) => l.msg === "device frame failed" && l.extra?.deviceId === dev).length).toBe(1);
  });

  it("over the daily cap (counted from what is stored today) the phone is told DAILY_LIMIT and nothing more is stored", async () => {
    const phone = await h.phone(MIA);
    const dev = phone.deviceId!;
    // Earlier today this phone stored all but two of its daily notifications (in another process, before a restart):
    // the receipts the store leaves are what this process counts from.
    const cap = TELEMETRY_LIMITS.notification.perDay;
    const ts = nowIso();
    const earlier = Array.from({ length: cap - 2 }, () => ({ device_id: dev, message_id: newId(), received_at: ts, kind: "notification" }));
    for (let i = 0; i < earlier.length; i += 500)
      await h.tdb.db
        .insertInto("device_message_receipts")
        .values(earlier.slice(i, i + 500))
        .execute();
    const before = await countOf("notifications", dev);

    const answers: (string | null)[] = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        await phone.send("notification", { type: "late", message: `late ${i}` }).then(
          () => null,
          (e: { code: string }) => e.code,
        ),
      );
    expect(answers).toEqual([null, null, "DAILY_LIMIT", "DAILY_LIMIT", "DAILY_LIMIT"]);
    const after = await countOf("notifications", dev);
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after.length).toBe(before.length + 2);
    const err = (await phone.send("notification", { type: "late", message: "again" }).catch((e: Error) => e)) as Error;
    expect(err.message).toBe(
      "DAILY_LIMIT: This phone has stored 2,000 notifications today, the most a day; this one was not stored. New ones are taken again from midnight UTC.",
    );
    // Other kinds have their own caps: a log still goes in.
    await expect(phone.send("device_log", { title: "still fine", details: { a: "b" } })).resolves.toBeTruthy();
  });

  it("device logs: one over the size cap is refused whole (TOO_LARGE); a flood stores a minute's worth", async () => {
    const phone = await h.phone(LEO);
    const dev = phone.deviceId!;
    const before = await countOf("device_logs", dev);
    // ~200 KB of details: within the frame limit, over the log's.
    const big = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, "x".repeat(2_000)]));
    const refused = (await phone.send("device_log", { title: "huge", details: big }).catch((e: Error) => e)) as Error & { code: string };
    expect(refused.code).toBe("TOO_LARGE");
    expect(refused.message).toMatch(
      /^TOO_LARGE: A device log's details are at most 16,384 bytes; this one has 2\d\d,\d{3} and was not stored\.$/,
    );
    // Just under the cap is taken.
    const fits = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, "y".repeat(2_000)]));
    expect(JSON.stringify(fits).length).toBeGreaterThan(DEVICE_LOG_MAX_BYTES - 400);
    await phone.send("device_log", { title: "fits", details: fits });

    const r = await flood(
      phone,
      Array.from({ length: 200 }, (_, i) => ({ event: "device_log" as const, data: { title: `flood ${i}`, details: { n: i } } })),
    );
    const perMinute = TELEMETRY_LIMITS.device_log.perMinute;
    expect(r.ok).toBeGreaterThanOrEqual(perMinute - 1);
    expect(r.ok).toBeLessThanOrEqual(perMinute);
    expect(r.refused).toEqual({ RATE_LIMITED: 200 - r.ok });
    const after = await countOf("device_logs", dev);
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after.length).toBe(before.length + 1 + r.ok);
    expect(
      await h.tdb.db.selectFrom("device_logs").select("id").where("device_id", "=", dev).where("title", "=", "huge").execute(),
    ).toEqual([]);
  });

  it("/device-logs' list is paged: a day with many logs gives one bounded page and says there is a next", async () => {
    const { deviceId } = await h.kid(LEO);
    const day = "2026-03-04";
    const rows = Array.from({ length: 2 * DEVICE_LOG_PAGE_SIZE + 5 }, (_, i) => ({
      id: newId(),
      device_id: deviceId,
      title: `paged ${String(i).padStart(2, "0")}`,
      details: JSON.stringify({ i }),
      device_time: null,
      created_at: `${day}T10:${String(i).padStart(2, "0")}:00.000Z`,
    }));
    await h.tdb.db.insertInto("device_logs").values(rows).execute();
    const list = (page?: number) =>
      h.caller(h.demo).logs.list({ serialNumber: LEO, currentDate: day, ...(page === undefined ? {} : { page }) });
    const first = await list();
    expect(first.logs).toHaveLength(DEVICE_LOG_PAGE_SIZE);
    expect(first).toMatchObject({ page: 1, hasNextPage: true });
    expect(first.logs[0]!.title).toBe("paged 44"); // newest first
    const third = await list(3);
    expect(third).toMatchObject({ page: 3, hasNextPage: false });
    expect(third.logs.map((l) => l.title)).toEqual(["paged 04", "paged 03", "paged 02", "paged 01", "paged 00"]);
    expect((await list(4)).logs).toEqual([]);
    await expect(list(0)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("the limiter alone: the bucket refills over the minute; the daily cap ends at midnight UTC", async () => {
    let t = Date.parse("2026-05-01T23:58:00.000Z");
    const device: DeviceRef = { id: newId(), profile_id: "p", serial_number: "S-1", enrolled_at: "2026-01-01T00:00:00.000Z" };
    const msg = { event: "notification", id: "m", data: { type: "t", message: "m" } } as const;
    const admitter = (perMinute: number, perDay: number) => {
      const limiter = createTelemetryLimiter(h.tdb.db, { now: () => t, limits: { notification: { perMinute, perDay } } });
      return async () => {
        try {
          await limiter.admit(device, msg);
          limiter.stored(device, "notification");
          return "ok";
        } catch (e) {
          return `${(e as { code: string }).code} ${String((e as { extra?: { retryAfterMs?: number } }).extra?.retryAfterMs)}`;
        }
      };
    };
    const rate = admitter(2, 100);
    expect([await rate(), await rate(), await rate()]).toEqual(["ok", "ok", "RATE_LIMITED 30000"]);
    t += 30_000; // half a minute: one more
    expect([await rate(), await rate()]).toEqual(["ok", "RATE_LIMITED 30000"]);

    t = Date.parse("2026-05-01T23:58:00.000Z");
    const daily = admitter(100, 3);
    expect([await daily(), await daily(), await daily(), await daily()]).toEqual(["ok", "ok", "ok", "DAILY_LIMIT 120000"]);
    t += 120_000; // midnight UTC: a new day, counted again from what is stored (nothing, for this made-up phone)
    expect(await daily()).toBe("ok");
  });
});
