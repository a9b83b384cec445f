import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDown, migrateToLatest } from "./index";
import { migrations } from "./migrations/index";
import { canAccessKid, findAccessibleDevice, findAccessibleKid } from "./queries/access";
import { newId, nowIso } from "../core/ids.server";
import { findLiveSessionWithKids, listKidsForParent } from "./queries/kids";
import { createParent, findParentByEmail } from "./queries/parents";
import {
  createSession,
  findLiveSession,
  findLiveSessionParent,
  revokeAllSessions,
  revokeSession,
  type SessionPolicy,
} from "./queries/sessions";
import type { DB } from "./index";
import { seedDemo, DEMO_LOGIN } from "./seed/index";
import { createTestDb, DIALECTS, type TestDb } from "./index.testing";

const policy = { idleMinutes: 30, absoluteDays: 7 };

describe.each(DIALECTS)("repositories on %s", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("stores parents with normalised, unique emails", async () => {
    const p = await createParent(t.db, { email: "  Jo@Example.COM ", name: "Jo", passwordHash: "x" });
    expect(p.email).toBe("jo@example.com");
    expect(p.role).toBe("parent");
    expect((await findParentByEmail(t.db, "JO@example.com"))?.id).toBe(p.id);
    await expect(createParent(t.db, { email: "jo@example.com", name: "Jo 2", passwordHash: "y" })).rejects.toThrow();
  });

  it.each([
    ["findLiveSession", findLiveSession],
    ["findLiveSessionParent", findLiveSessionParent],
    // The page cache's session check (with the kids list beside it) keeps the same rules.
    [
      "findLiveSessionWithKids",
      (db: DB, token: string, p: SessionPolicy, now?: Date) => findLiveSessionWithKids(db, token, p, {}, now).then((r) => r?.parent),
    ],
  ] as const)("keeps sessions by token hash with idle and absolute expiry and revocation (%s)", async (name, findLive) => {
    const p = await createParent(t.db, { email: `sess-${name}@example.com`, name: "S", passwordHash: "x" });
    const start = new Date("2026-01-01T00:00:00Z");
    const token = await createSession(t.db, p.id, policy, {}, start);
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const stored = await t.db.selectFrom("sessions").select("id").where("parent_id", "=", p.id).execute();
    expect(stored.map((s) => s.id)).not.toContain(token);
    const found = await findLive(t.db, token, policy, new Date(start.getTime() + 10 * 60_000));
    expect(found).toBeTruthy();
    // findLiveSession answers the session row, findLiveSessionParent the parent row
    expect(name === "findLiveSession" ? (found as { parent_id: string }).parent_id : (found as { id: string; email: string }).id).toBe(
      p.id,
    );
    // idle: 31 minutes after the last use
    expect(await findLive(t.db, token, policy, new Date(start.getTime() + 41 * 60_000))).toBeUndefined();
    // absolute: used every 20 minutes for 8 days still ends at 7 days
    const t2 = await createSession(t.db, p.id, policy, {}, start);
    let at = start.getTime();
    let alive = true;
    while (alive && at < start.getTime() + 8 * 86_400_000) {
      at += 20 * 60_000;
      alive = Boolean(await findLive(t.db, t2, policy, new Date(at)));
    }
    expect(at).toBeLessThanOrEqual(start.getTime() + 7 * 86_400_000);
    expect(at).toBeGreaterThan(start.getTime() + 7 * 86_400_000 - 21 * 60_000);
    const t3 = await createSession(t.db, p.id, policy);
    await revokeSession(t.db, t3);
    expect(await findLive(t.db, t3, policy)).toBeUndefined();
    const t4 = await createSession(t.db, p.id, policy);
    expect(await revokeAllSessions(t.db, p.id)).toBeGreaterThanOrEqual(1);
    expect(await findLive(t.db, t4, policy)).toBeUndefined();
    expect(await findLive(t.db, "not-a-token", policy)).toBeUndefined();
  });

  it("seeds the demo family and enforces kid access: own, accepted delegation, nothing else", async () => {
    await seedDemo(t.db);
    const demo = (await findParentByEmail(t.db, DEMO_LOGIN.email))!;
    expect(demo.use_default_password).toBe(1);
    const kids = await listKidsForParent(t.db, demo);
    expect(kids.map((k) => k.name).sort()).toEqual(["Leo", "Mia"]);
    expect(kids.every((k) => k.serialNumber)).toBe(true);

    const other = await createParent(t.db, { email: "other@example.com", name: "Other", passwordHash: "x" });
    expect(await listKidsForParent(t.db, other)).toEqual([]);
    expect(await canAccessKid(t.db, other, kids[0].id)).toBe(false);
    expect(await findAccessibleDevice(t.db, other, kids[0].serialNumber!)).toBeUndefined();
    expect(await findAccessibleKid(t.db, other, kids[0].id)).toBeUndefined();
    expect(await canAccessKid(t.db, demo, kids[0].id)).toBe(true);
    // The phone is read with its kid, the check and its online state in one statement.
    const ownDevice = (await findAccessibleDevice(t.db, demo, kids[0].serialNumber!))!;
    expect(ownDevice.device.serial_number).toBe(kids[0].serialNumber);
    expect(ownDevice.kid).toEqual({ id: kids[0].id, name: kids[0].name });
    await t.db.updateTable("device_status").set({ online: 1 }).where("device_id", "=", ownDevice.device.id).execute();
    expect((await findAccessibleDevice(t.db, demo, kids[0].serialNumber!))!.online).toBe(true);
    await t.db.updateTable("device_status").set({ online: 0 }).where("device_id", "=", ownDevice.device.id).execute();
    expect((await findAccessibleDevice(t.db, demo, kids[0].serialNumber!))!.online).toBe(false);
    expect(await findAccessibleDevice(t.db, demo, "NO-SUCH-SERIAL")).toBeUndefined();

    const delegationId = newId();
    await t.db
      .insertInto("delegations")
      .values({
        id: delegationId,
        owner_parent_id: demo.id,
        delegate_email: other.email,
        delegate_name: "Other",
        status: "Pending",
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    await t.db.insertInto("delegation_kids").values({ delegation_id: delegationId, profile_id: kids[0].id }).execute();
    expect(await canAccessKid(t.db, other, kids[0].id)).toBe(false); // pending is not enough
    expect(await findAccessibleDevice(t.db, other, kids[0].serialNumber!)).toBeUndefined();
    await t.db.updateTable("delegations").set({ status: "Accepted" }).where("id", "=", delegationId).execute();
    expect(await canAccessKid(t.db, other, kids[0].id)).toBe(true);
    expect(await canAccessKid(t.db, other, kids[1].id)).toBe(false); // only the kids delegated
    expect((await findAccessibleKid(t.db, other, kids[0].id))?.name).toBe(kids[0].name);
    expect((await findAccessibleDevice(t.db, other, kids[0].serialNumber!))?.kid.id).toBe(kids[0].id);
    expect(await findAccessibleDevice(t.db, other, kids[1].serialNumber!)).toBeUndefined();
    // A revoked delegation takes the kid and the phone away again.
    await t.db.updateTable("delegations").set({ status: "Revoked" }).where("id", "=", delegationId).execute();
    expect(await canAccessKid(t.db, other, kids[0].id)).toBe(false);
    expect(await findAccessibleDevice(t.db, other, kids[0].serialNumber!)).toBeUndefined();
    await t.db.updateTable("delegations").set({ status: "Accepted" }).where("id", "=", delegationId).execute();
    expect((await listKidsForParent(t.db, other)).map((k) => k.id)).toEqual([kids[0].id]);

    const catalog = await t.db.selectFrom("catalog_apps").select(["package_name", "expert_rating", "genre_id"]).execute();
    expect(catalog.length).toBeGreaterThanOrEqual(60);
    expect(new Set(catalog.map((c) => c.expert_rating))).toEqual(new Set(["EXPERT_RECOMMENDATION", "PARENTAL_SUPERVISION", "16+", null]));
    expect((await t.db.selectFrom("store_categories").select("id").execute()).length).toBe(56);
    const usage = await t.db.selectFrom("app_usage_daily").select(["day"]).distinct().execute();
    expect(usage.length).toBeGreaterThanOrEqual(29);
  });

  it("migrates down and up again", async () => {
    const fresh = await createTestDb(dialect);
    try {
      await migrateDown(fresh.db);
      expect(await migrateToLatest(fresh.db)).toEqual(Object.keys(migrations));
      expect(Object.keys(migrations)).toContain("2026-11-21T00-initial");
    } finally {
      await fresh.destroy();
    }
  });
});
