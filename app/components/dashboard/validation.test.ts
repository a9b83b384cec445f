import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KID_NAME_MAX } from "#core/values";
import { DIALECTS } from "#db/index.testing";
import type { Parent } from "#db/schema";
import { startHarness, type Harness } from "../../../server/harness.testing";

// One rule per value (core/values.ts) in the form, the procedure and the database; every refusal in plain words.
process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "kids-portal-validation-test-"));
const { callDevice } = await import("./device.server");
const { readToast } = await import("../../utils/toast.server");
const { editKidSchema } = await import("./schemas");
const { parseWithZod } = await import("@conform-to/zod");

const MIA = "DEMO-MIA-0001";
const RAW_JSON = /^\s*[[{]|"code"\s*:|invalid_type|too_big|"path"/;

async function trpc(h: Harness, token: string, proc: string, input: unknown) {
  const res = await fetch(`${h.url}/trpc/${proc}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as { error?: { message: string }; result?: unknown } };
}

describe.each(DIALECTS)("shared value rules on %s", (dialect) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness({ dialect });
    token = await h.sessionFor(h.demo.id);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("a kid name the form accepts is accepted by the device service, and one it refuses is refused by both", async () => {
    const { profileId } = await h.kid(MIA);
    const year = new Date().getUTCFullYear();
    const form = (name: string) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries({ intent: "edit-kid", profileId, kidName: name, birthMonth: "3", birthYear: "2015" }))
        fd.set(k, v);
      return parseWithZod(fd, { schema: editKidSchema(year) });
    };
    const longest = "M".repeat(KID_NAME_MAX);
    expect(form(longest).status).toBe("success");
    expect(
      (await h.caller(h.demo).kids.updateProfile({ profileId, kidName: longest, birthMonth: 3, birthYear: 2015 })).respones_msg,
    ).toContain("profile has been updated");

    const tooLong = "M".repeat(55);
    const refused = form(tooLong);
    expect(refused.status).toBe("error");
    expect(refused.reply().error?.kidName).toEqual([`The name must be ${KID_NAME_MAX} characters or fewer.`]);
    const r = await trpc(h, token, "kids.updateProfile", { profileId, kidName: tooLong, birthMonth: 3, birthYear: 2015 });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toBe(`The name must be ${KID_NAME_MAX} characters or fewer.`);
  });

  it.each([1.5e21, 1e300, 1.5, -15, 1455])("refuses %j minutes as a daily limit, stores nothing, and says so in words", async (minutes) => {
    const { deviceId } = await h.kid(MIA);
    const r = await trpc(h, token, "settings.setGlobalDailyLimit", { serialNumber: MIA, minutes });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toBe("Please enter whole minutes from 0 to 1,440.");
    const row = await h.tdb.db
      .selectFrom("global_settings")
      .select("value")
      .where("device_id", "=", deviceId)
      .where("key", "=", "GlobalDailyLimit")
      .executeTakeFirst();
    expect(row?.value ?? "0").not.toBe(String(minutes));
  });

  it("keeps the spec's words for a non-multiple of 15 and refuses a location interval past a day", async () => {
    expect((await trpc(h, token, "settings.setGlobalDailyLimit", { serialNumber: MIA, minutes: 20 })).body.error?.message).toBe(
      "Please enter time multiple of 15.",
    );
    const r = await trpc(h, token, "device.updateDevice", {
      serialNumber: MIA,
      enableLocationTracking: true,
      locationTrackingInterval: 1e300,
    });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toBe("Please enter whole minutes from 0 to 1,440.");
  });

  it("never answers raw validation JSON over /trpc, whatever the input", async () => {
    for (const [proc, input] of [
      ["kids.setSleepMode", { profileId: 42, sleepMode: "yes" }],
      ["device.sendFcmCommand", { serialNumber: MIA, action: "nope" }],
      ["device.installApp", { serialNumber: MIA, packageName: "bad name!" }],
      ["kids.updateProfile", {}],
    ] as const) {
      const r = await trpc(h, token, proc, input);
      expect(r.status, proc).toBe(400);
      expect(r.body.error?.message, proc).not.toMatch(RAW_JSON);
      expect(r.body.error?.message.length, proc).toBeGreaterThan(5);
    }
  });

  it("turns a refused device-service call into a toast in plain words (callDevice)", async () => {
    const { profileId } = await h.kid(MIA);
    const parent = (await h.tdb.db.selectFrom("parents").selectAll().where("id", "=", h.demo.id).executeTakeFirstOrThrow()) as Parent;
    const context = { services: { device: h.caller, log: () => undefined } } as unknown as AppLoadContext;
    const res = await callDevice(context, parent, "/kids-device", (d) =>
      d.kids.updateProfile({ profileId, kidName: "M".repeat(55), birthMonth: 3, birthYear: 2015 }),
    );
    const { toast } = await readToast(new Request("http://x/", { headers: { Cookie: res.headers.get("Set-Cookie")!.split(";")[0] } }));
    expect(toast).toEqual({ type: "error", message: `The name must be ${KID_NAME_MAX} characters or fewer.` });
  });
});
