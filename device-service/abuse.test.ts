import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { COMMANDS_PER_MINUTE } from "./commands/limits";
import { startHarness, type Harness } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

const enroll = async (url: string, token: string, serialNumber: string) => {
  const res = await fetch(`${url}/device-api/enroll`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token, hardware: { serialNumber } }),
  });
  return { status: res.status, body: (await res.json()) as { respones_msg: string; data?: unknown } };
};

/** Issue 9 item 11 (device service): abuse limits and no oracles. */
describe.each(DIALECTS)("device service abuse limits on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("enrollment does not tell whether a serial number belongs to another family", async () => {
    const { profileId } = await h.kid(MIA);
    const before = await h.tdb.db
      .selectFrom("devices")
      .selectAll()
      .where("serial_number", "=", h.other.serialNumber)
      .executeTakeFirstOrThrow();
    const { token } = await h.caller(h.demo).enrollment.createToken({ profileId });
    const theirs = await enroll(h.url, token, h.other.serialNumber);
    // Exactly what a made-up code gets.
    const madeUp = await enroll(h.url, `enr_${randomBytes(24).toString("base64url")}`, h.other.serialNumber);
    expect(theirs).toEqual(madeUp);
    expect(theirs.status).toBe(401);
    // The code is spent, as after any use: trying it again says what any used code says.
    const { token: used } = await h.caller(h.demo).enrollment.createToken({ profileId });
    expect((await enroll(h.url, used, `FREE-${randomBytes(3).toString("hex")}`)).status).toBe(200);
    const usedAgain = await enroll(h.url, used, `FREE-${randomBytes(3).toString("hex")}`);
    expect(await enroll(h.url, token, `FREE-${randomBytes(3).toString("hex")}`)).toEqual(usedAgain);
    // Nothing of the other family's phone changed; operators see why in the log.
    expect(
      await h.tdb.db.selectFrom("devices").selectAll().where("serial_number", "=", h.other.serialNumber).executeTakeFirstOrThrow(),
    ).toEqual(before);
    expect(h.logs.some((l) => l.msg === "device enrollment refused" && l.extra?.reason === "serial enrolled to another family")).toBe(true);
  });

  it("commands to one phone: at most 30 a minute per parent, then a clear refusal; other phones unaffected", async () => {
    const { deviceId } = await h.kid(MIA);
    const d = h.caller(h.demo).device;
    const sends = [
      () => d.issueCommand({ serialNumber: MIA, type: "LOCK" }),
      () => d.sendFcmCommand({ serialNumber: MIA, action: "Ring a Phone" }),
      () => d.sync({ serialNumber: MIA }),
      () => d.fetchLogs({ serialNumber: MIA }),
      () => d.installApp({ serialNumber: MIA, packageName: "com.rate.limit" }),
    ];
    const since = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < COMMANDS_PER_MINUTE; i++) await sends[i % sends.length]();
    for (const send of sends) {
      await expect(send()).rejects.toMatchObject({
        code: "TOO_MANY_REQUESTS",
        message: "You have sent 30 commands to Mia's phone in the last minute. Please wait a minute before sending another.",
      });
    }
    const stored = await h.tdb.db
      .selectFrom("device_commands")
      .select("id")
      .where("device_id", "=", deviceId)
      .where("issued_by", "=", h.demo.id)
      .where("created_at", ">=", since)
      .execute();
    expect(stored).toHaveLength(COMMANDS_PER_MINUTE);
    // Another phone of the same parent is a budget of its own.
    await expect(d.issueCommand({ serialNumber: LEO, type: "LOCK" })).resolves.toMatchObject({
      respones_msg: expect.stringMatching(/^Lock command sent to Leo's phone/),
    });
  });

  it("the kid picture's type comes from its bytes in the device service, whatever the caller claims; it is stored re-encoded", async () => {
    const { profileId } = await h.kid(LEO);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .png()
      .toBuffer();
    const headerOnly = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(64)]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    const update = (picture: { mime?: string; base64: string }) =>
      h.caller(h.demo).kids.updateProfile({
        profileId,
        kidName: "Leo",
        birthMonth: 8,
        birthYear: 2019,
        picture: picture as { mime: string; base64: string },
      });
    const row = () =>
      h.tdb.db.selectFrom("kid_profiles").select(["picture_mime", "picture"]).where("id", "=", profileId).executeTakeFirstOrThrow();
    // Claimed a PNG, is an SVG (script): refused, nothing stored.
    await expect(update({ mime: "image/png", base64: svg.toString("base64") })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The picture must be a PNG, JPEG, GIF or WebP image.",
    });
    expect((await row()).picture).toBeNull();
    // A PNG's signature with nothing readable behind it: refused, nothing stored.
    await expect(update({ mime: "image/png", base64: headerOnly.toString("base64") })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await row()).picture).toBeNull();
    // Claimed a GIF (or nothing at all), is a PNG: read as what it is, stored only as its re-encoded JPEG.
    await update({ mime: "image/gif", base64: png.toString("base64") });
    const stored = await row();
    expect(stored.picture_mime).toBe("image/jpeg");
    expect(await sharp(stored.picture!).metadata()).toMatchObject({ format: "jpeg", width: 40, height: 30 });
    await update({ base64: png.toString("base64") });
    expect((await row()).picture_mime).toBe("image/jpeg");
  });
});
