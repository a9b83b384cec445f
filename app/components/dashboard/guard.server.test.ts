import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "#core/ids.server";
import { startHarness, type Harness } from "../../../server/harness.testing";
import { parseEnv } from "#core/env.server";
import { requireKidDevice } from "./guard.server";

process.env.SESSION_SECRET ??= "t".repeat(40);
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "guard-test-"));

/** A kid page opened without naming a kid goes to the first kid with a phone; ids given are checked as before. */
describe("requireKidDevice", () => {
  let h: Harness;
  let context: AppLoadContext;
  beforeAll(async () => {
    h = await startHarness();
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: "t".repeat(40) });
    context = { services: { env, db: h.tdb.db, device: h.caller, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const attempt = async (url: string, parentId: string, method = "GET") => {
    const token = await h.sessionFor(parentId);
    const request = new Request(`http://localhost${url}`, { method, headers: { Authorization: `Bearer ${token}` } });
    try {
      return await requireKidDevice(
        { request, context: { ...context } },
        new URL(request.url).searchParams.get("profileId"),
        new URL(request.url).searchParams.get("serialNumber"),
      );
    } catch (thrown) {
      return thrown as Response;
    }
  };

  it("no kid named: the first kid with a phone, in the page's own keys, other query kept", async () => {
    const kids = await h.tdb.db
      .selectFrom("kid_profiles")
      .select(["id"])
      .where("parent_id", "=", h.demo.id)
      .orderBy("created_at")
      .orderBy("name")
      .execute();
    const first = kids[0]!.id;
    const device = await h.tdb.db
      .selectFrom("devices")
      .select("serial_number")
      .where("profile_id", "=", first)
      .where("unenrolled_at", "is", null)
      .orderBy("created_at")
      .executeTakeFirstOrThrow();
    const res = (await attempt("/apps?filter=week", h.demo.id)) as Response;
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("Location")!, "http://localhost");
    expect(to.pathname).toBe("/apps");
    expect(to.searchParams.get("profileId")).toBe(first);
    expect(to.searchParams.get("serialNumber")).toBe(device.serial_number);
    expect(to.searchParams.get("filter")).toBe("week");
    const info = (await attempt("/device-info", h.demo.id)) as Response;
    expect(new URL(info.headers.get("Location")!, "http://localhost").searchParams.get("profile_id")).toBe(first);
  });

  it("another family's parent is sent to its own kid, never to the demo family's", async () => {
    const res = (await attempt("/apps", h.other.id)) as Response;
    const to = new URL(res.headers.get("Location")!, "http://localhost");
    expect(to.searchParams.get("profileId")).toBe(h.other.profileId);
  });

  it("a parent without a kid with a phone goes to the dashboard (which offers to add one)", async () => {
    const id = newId();
    const ts = new Date().toISOString();
    await h.tdb.db
      .insertInto("parents")
      .values({
        id,
        email: `nokid-${id}@example.com`,
        name: "No Kid",
        password_hash: null,
        role: "parent",
        email_verified_at: ts,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const res = (await attempt("/schedules", id)) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/kids-device");
  });

  it("a post without ids, or a page naming only one of them, is still refused with 404", async () => {
    expect(((await attempt("/apps", h.demo.id, "POST")) as Response).status).toBe(404);
    expect(((await attempt(`/apps?profileId=${h.other.profileId}`, h.demo.id)) as Response).status).toBe(404);
  });
});
