import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Parent } from "../schema";
import { createTestDb, DIALECTS, type TestDb } from "../index.testing";
import { canAccessKid } from "./access";
import { answerDelegation, createDelegation, listAccessReceived, listDelegatedAccess, listOwnKids, revokeDelegation } from "./delegations";
import { createKidProfile, findLiveSessionWithKids, listKidsForParent } from "./kids";
import { createSession, revokeSession } from "./sessions";
import {
  addParentNotification,
  listParentNotifications,
  markParentNotificationsRead,
  sleepModeChangedBy,
  updateParentName,
} from "./parent-profile";
import { createParent, findParentById } from "./parents";

describe.each(DIALECTS)("delegations on %s", (dialect) => {
  let t: TestDb;
  let owner: Parent;
  let verified: Parent;
  let unverified: Parent;
  let stranger: Parent;
  let mia: string;
  let leo: string;
  let strangersKid: string;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    owner = await createParent(t.db, { email: "alice@family.example", name: "Alice", passwordHash: "x", emailVerified: true });
    verified = await createParent(t.db, { email: "bob@family.example", name: "Bob", passwordHash: "x", emailVerified: true });
    unverified = await createParent(t.db, { email: "carol@family.example", name: "Carol", passwordHash: "x" });
    stranger = await createParent(t.db, { email: "eve@other.example", name: "Eve", passwordHash: "x", emailVerified: true });
    mia = await createKidProfile(t.db, owner.id, { name: "Mia", birthMonth: 1, birthYear: 2016 });
    leo = await createKidProfile(t.db, owner.id, { name: "Leo", birthMonth: 2, birthYear: 2018 });
    strangersKid = await createKidProfile(t.db, stranger.id, { name: "Zed", birthMonth: 3, birthYear: 2015 });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const invite = (email: string, kids: string[]) =>
    createDelegation(t.db, owner, { email, name: "Someone", allowedKids: kids, accessLevel: "full" });

  it("lists only the owner's own kids for the add form", async () => {
    expect((await listOwnKids(t.db, owner.id)).map((k) => k.name).sort()).toEqual(["Leo", "Mia"]);
  });

  it("refuses kids that are not the owner's, and oneself", async () => {
    expect(await invite("bob@family.example", [mia, strangersKid])).toEqual({ ok: false, message: "Please choose among your own kids." });
    expect(await invite("ALICE@family.example", [mia])).toEqual({ ok: false, message: "You already have access to your own kids." });
  });

  it("pending gives no access; a verified invitee accepts and gets exactly the chosen kids; the owner is marked in the switcher list", async () => {
    const created = await invite("bob@family.example", [mia]);
    if (!created.ok) throw new Error(created.message);
    expect(await canAccessKid(t.db, verified, mia)).toBe(false);
    const [given] = await listDelegatedAccess(t.db, owner.id);
    expect(given).toMatchObject({
      delegateEmail: "bob@family.example",
      status: "Pending",
      accessLevel: "full",
      kids: [{ id: mia, name: "Mia" }],
    });
    const [received] = await listAccessReceived(t.db, "Bob@Family.example");
    expect(received).toMatchObject({ id: created.id, ownerName: "Alice", status: "Pending" });
    // A second open invitation to the same address is refused.
    expect((await invite("bob@family.example", [leo])).ok).toBe(false);

    // Someone else cannot answer it, the owner neither.
    expect(await answerDelegation(t.db, stranger, created.id, "Accepted")).toEqual({ ok: false, reason: "not-found" });
    expect(await answerDelegation(t.db, owner, created.id, "Accepted")).toEqual({ ok: false, reason: "not-found" });
    const accepted = await answerDelegation(t.db, verified, created.id, "Accepted");
    expect(accepted).toMatchObject({ ok: true, delegation: { status: "Accepted" } });
    expect(await canAccessKid(t.db, verified, mia)).toBe(true);
    expect(await canAccessKid(t.db, verified, leo)).toBe(false);
    const row = await t.db
      .selectFrom("delegations")
      .select(["responded_by", "responded_at"])
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.responded_by).toBe(verified.id);
    expect(row.responded_at).toBeTruthy();
    // Answering twice does nothing.
    expect(await answerDelegation(t.db, verified, created.id, "Rejected")).toEqual({ ok: false, reason: "not-pending" });
    expect(await listKidsForParent(t.db, verified)).toEqual([
      { id: mia, name: "Mia", serialNumber: null, own: false, ownerName: "Alice", phone: "none", lastSeen: null },
    ]);

    // Only the owner may revoke; revoking ends access at once; revoking twice is refused.
    expect(await revokeDelegation(t.db, verified.id, created.id)).toEqual({ ok: false, reason: "not-found" });
    expect(await revokeDelegation(t.db, stranger.id, created.id)).toEqual({ ok: false, reason: "not-found" });
    expect(await revokeDelegation(t.db, owner.id, created.id)).toMatchObject({ ok: true, wasAccepted: true });
    expect(await canAccessKid(t.db, verified, mia)).toBe(false);
    expect(await listKidsForParent(t.db, verified)).toEqual([]);
    expect(await revokeDelegation(t.db, owner.id, created.id)).toEqual({ ok: false, reason: "not-active" });
    // A revoked invitation cannot be accepted again.
    expect(await answerDelegation(t.db, verified, created.id, "Accepted")).toEqual({ ok: false, reason: "not-pending" });

    // Re-inviting after a revocation makes a new pending invitation; the old row stays as the record.
    const again = await invite("bob@family.example", [leo]);
    expect(again.ok).toBe(true);
    const statuses = (await listDelegatedAccess(t.db, owner.id))
      .filter((d) => d.delegateEmail === "bob@family.example")
      .map((d) => d.status);
    expect(statuses.sort()).toEqual(["Pending", "Revoked"]);
  });

  it("an unverified account sees the invitation but cannot accept it; it may reject; re-inviting after a rejection is a new pending invitation", async () => {
    const created = await invite("carol@family.example", [leo]);
    if (!created.ok) throw new Error(created.message);
    expect((await listAccessReceived(t.db, unverified.email)).map((d) => d.status)).toEqual(["Pending"]);
    expect(await answerDelegation(t.db, unverified, created.id, "Accepted")).toEqual({ ok: false, reason: "unverified" });
    expect(await canAccessKid(t.db, unverified, leo)).toBe(false);
    expect(await answerDelegation(t.db, unverified, created.id, "Rejected")).toMatchObject({
      ok: true,
      delegation: { status: "Rejected" },
    });
    expect(await canAccessKid(t.db, unverified, leo)).toBe(false);
    const again = await invite("carol@family.example", [leo]);
    expect(again.ok).toBe(true);
    expect((await listAccessReceived(t.db, unverified.email)).map((d) => d.status)).toEqual(["Pending", "Rejected"]);
  });

  it("renames the parent; keeps portal notifications per address; names who changed sleep mode", async () => {
    await updateParentName(t.db, owner.id, "  Alice Smith ");
    expect((await t.db.selectFrom("parents").select("name").where("id", "=", owner.id).executeTakeFirstOrThrow()).name).toBe("Alice Smith");

    await addParentNotification(t.db, "Dan@Family.example", "Alice Smith gave you access to Mia.", "/parent-profile");
    const [n] = await listParentNotifications(t.db, "dan@family.example");
    expect(n).toMatchObject({ message: "Alice Smith gave you access to Mia.", link: "/parent-profile", readAt: null });
    await markParentNotificationsRead(t.db, "dan@family.example");
    expect((await listParentNotifications(t.db, "dan@family.example"))[0]!.readAt).toBeTruthy();

    expect(await sleepModeChangedBy(t.db, mia)).toBeNull();
    await t.db.updateTable("kid_profiles").set({ sleep_mode: 1, sleep_mode_by: verified.id }).where("id", "=", mia).execute();
    expect(await sleepModeChangedBy(t.db, mia)).toEqual({ id: verified.id, name: "Bob", email: "bob@family.example" });
  });

  it("the kids list read with a live session is the parent's own list, with each kid's view revision", async () => {
    const policy = { idleMinutes: 60, absoluteDays: 1 };
    const frank = await createParent(t.db, { email: "frank@family.example", name: "Frank", passwordHash: "x", emailVerified: true });
    const created = await invite("frank@family.example", [leo]);
    if (!created.ok) throw new Error(created.message);
    const viaSession = async (parent: Parent) => {
      const listed = await findLiveSessionWithKids(t.db, await createSession(t.db, parent.id, policy), policy);
      expect(listed?.parent).toEqual(await findParentById(t.db, parent.id));
      return listed!;
    };
    const revs = async (ids: string[]) =>
      new Map(
        (
          await t.db
            .selectFrom("kid_profiles")
            .select(["id", "view_rev"])
            .where("id", "in", ids.length ? ids : ["none"])
            .execute()
        ).map((r) => [r.id, r.view_rev]),
      );
    const same = async (parent: Parent) => {
      const listed = await viaSession(parent);
      expect(listed.kids).toEqual(await listKidsForParent(t.db, parent));
      expect(listed.viewRevs).toEqual(await revs(listed.kids.map((k) => k.id)));
      return listed.kids.map((k) => k.name);
    };
    // Pending: only own kids (Frank has none).
    expect(await same(frank)).toEqual([]);
    expect(await answerDelegation(t.db, frank, created.id, "Accepted")).toMatchObject({ ok: true });
    expect(await same(frank)).toEqual(["Leo"]);
    // Own and delegated kids together (on SQLite the list then reads both sides of the rule; with none delegated, one).
    await createKidProfile(t.db, frank.id, { name: "Fay", birthMonth: 1, birthYear: 2016 });
    expect((await same(frank)).sort()).toEqual(["Fay", "Leo"]);
    expect((await same(owner)).sort()).toEqual(["Leo", "Mia"]);
    expect(await same(stranger)).toEqual(["Zed"]);
    await revokeDelegation(t.db, owner.id, created.id);
    expect(await same(frank)).toEqual(["Fay"]);
    // An unknown or revoked session: nothing.
    expect(await findLiveSessionWithKids(t.db, "no such token", policy)).toBeUndefined();
    const revoked = await createSession(t.db, owner.id, policy);
    await revokeSession(t.db, revoked);
    expect(await findLiveSessionWithKids(t.db, revoked, policy)).toBeUndefined();
  });
});
