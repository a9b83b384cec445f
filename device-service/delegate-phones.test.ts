import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { answerDelegation, createDelegation, revokeDelegation } from "../db/queries/delegations";
import { createParent } from "../db/queries/parents";
import type { Parent } from "../db/schema";
import { CODE_NO_LONGER_VALID } from "./enrollment";
import { ACCESS_NOT_FOUND } from "./routers/enrollment";
import { SimulatedPhone } from "./simulator/phone";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Issue 52, finding 1: a revoked delegate keeps no channel into the kid. A code is checked at use against its maker's
// access now; revoking removes the phones the delegate enrolled (credential refused, socket closed, no policy).
const MIA = "DEMO-MIA-0001";

function disconnected(phone: SimulatedPhone): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => phone.once("disconnected", (code: number, reason: string) => resolve({ code, reason })));
}

const enroll = (h: Harness, token: string, serialNumber: string) =>
  fetch(`${h.url}/device-api/enroll`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token, hardware: { serialNumber } }),
  });

describe.each(DIALECTS)("a revoked delegate's phones and codes on %s", (dialect) => {
  let h: Harness;
  let helper: Parent;
  const identity = (p: Parent) => ({ id: p.id, email: p.email, role: p.role });
  const delegate = async (email: string) => {
    const mia = await h.kid(MIA);
    const owner = (await h.tdb.db.selectFrom("parents").selectAll().where("id", "=", h.demo.id).executeTakeFirstOrThrow()) as Parent;
    const d = await createDelegation(h.tdb.db, owner, { email, name: "Helper", allowedKids: [mia.profileId], accessLevel: "full" });
    if (!d.ok) throw new Error(d.message);
    expect((await answerDelegation(h.tdb.db, helper, d.id, "Accepted")).ok).toBe(true);
    return d.id;
  };

  beforeAll(async () => {
    h = await startHarness({ dialect });
    helper = await createParent(h.tdb.db, { email: "helper@delegate.example", name: "Helper", passwordHash: null, emailVerified: true });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("the probe: two codes, revoked; the second code is refused and the enrolled phone stops at once (credential, socket, policy)", async () => {
    const mia = await h.kid(MIA);
    const delegationId = await delegate(helper.email);
    const first = await h.caller(identity(helper)).enrollment.createToken({ profileId: mia.profileId });
    const second = await h.caller(identity(helper)).enrollment.createToken({ profileId: mia.profileId });

    const phone = new SimulatedPhone({ baseUrl: h.url, serialNumber: "HELPER-PHONE-0100", reconnect: false });
    await phone.enroll(first.token);
    await phone.connect();
    const row = await h.tdb.db.selectFrom("devices").selectAll().where("id", "=", phone.deviceId!).executeTakeFirstOrThrow();
    expect(row.enrolled_by).toBe(helper.id);
    // While the delegate has access the phone gets the kid's policy like any other.
    await h.caller(h.demo).kids.setSleepMode({ profileId: mia.profileId, sleepMode: false });
    await phone.waitForCommand("APPLY_POLICY", 10_000);
    const ownersPhone = await h.phone(MIA, { reconnect: false });

    const closed = disconnected(phone);
    expect((await revokeDelegation(h.tdb.db, h.demo.id, delegationId)).ok).toBe(true);
    const revokedAt = new Date().toISOString();
    const removed = await h.caller(h.demo).enrollment.removeRevokedDelegatePhones({ delegationId });
    expect(removed.phones).toEqual([
      { deviceId: phone.deviceId, serialNumber: "HELPER-PHONE-0100", model: "Pixel 8a", kidId: mia.profileId, kidName: "Mia" },
    ]);

    // Its socket is closed, its credential refused from now on.
    expect(await closed).toEqual({ code: 4003, reason: "Phone removed from the account" });
    const again = new SimulatedPhone({ baseUrl: h.url, serialNumber: "HELPER-PHONE-0100", credential: phone.credential, reconnect: false });
    await expect(again.connect()).rejects.toThrow(/HTTP 401/);

    // No policy reaches it: the kid's next change goes to the owner's phone only.
    const policiesBefore = phone.received.filter((c) => c.type === "APPLY_POLICY").length;
    const sleep = await h.caller(h.demo).kids.setSleepMode({ profileId: mia.profileId, sleepMode: true });
    await ownersPhone.waitForCommand("APPLY_POLICY", 10_000, (c) => c.id === sleep.commandId);
    const sentSince = await h.tdb.db
      .selectFrom("device_commands")
      .select("id")
      .where("device_id", "=", phone.deviceId!)
      .where("created_at", ">=", revokedAt)
      .execute();
    expect(sentSince).toEqual([]);
    expect(phone.received.filter((c) => c.type === "APPLY_POLICY")).toHaveLength(policiesBefore);
    await h.caller(h.demo).kids.setSleepMode({ profileId: mia.profileId, sleepMode: false });

    // The second code, made while the delegate had access, is refused now; no phone is made of it.
    const res = await enroll(h, second.token, "HELPER-PHONE-0200");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ respones_msg: CODE_NO_LONGER_VALID });
    expect(await h.tdb.db.selectFrom("devices").select("id").where("serial_number", "=", "HELPER-PHONE-0200").executeTakeFirst()).toBe(
      undefined,
    );
    // Nor after a new invitation is accepted: only a code made under the access in force works.
    await delegate(helper.email);
    const stillRefused = await enroll(h, second.token, "HELPER-PHONE-0200");
    expect(stillRefused.status).toBe(401);
    expect(await stillRefused.json()).toEqual({ respones_msg: CODE_NO_LONGER_VALID });
    // A code made under the new access works, and the owner's phone (enrolled by the owner) was never touched.
    const fresh = await h.caller(identity(helper)).enrollment.createToken({ profileId: mia.profileId });
    expect((await enroll(h, fresh.token, "HELPER-PHONE-0300")).status).toBe(200);
    const owners = await h.tdb.db
      .selectFrom("devices")
      .select(["unenrolled_at", "enrolled_by"])
      .where("serial_number", "=", MIA)
      .executeTakeFirstOrThrow();
    expect(owners).toEqual({ unenrolled_at: null, enrolled_by: h.demo.id });
    await waitFor(async () => ownersPhone.connected);
  });

  it("a code of a delegate whose account is gone is refused; the removal is the owner's alone, after revoking, and idempotent", async () => {
    const mia = await h.kid(MIA);
    const gone = await createParent(h.tdb.db, { email: "gone@delegate.example", name: "Gone", passwordHash: null, emailVerified: true });
    const owner = (await h.tdb.db.selectFrom("parents").selectAll().where("id", "=", h.demo.id).executeTakeFirstOrThrow()) as Parent;
    const d = await createDelegation(h.tdb.db, owner, {
      email: gone.email,
      name: "Gone",
      allowedKids: [mia.profileId],
      accessLevel: "full",
    });
    if (!d.ok) throw new Error(d.message);
    expect((await answerDelegation(h.tdb.db, gone, d.id, "Accepted")).ok).toBe(true);
    const code = await h.caller(identity(gone)).enrollment.createToken({ profileId: mia.profileId });

    // Not revoked yet: refused; another family cannot see it at all.
    await expect(h.caller(h.demo).enrollment.removeRevokedDelegatePhones({ delegationId: d.id })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
    });
    await expect(h.caller(h.other).enrollment.removeRevokedDelegatePhones({ delegationId: d.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: ACCESS_NOT_FOUND,
    });
    await expect(h.caller(identity(gone)).enrollment.removeRevokedDelegatePhones({ delegationId: d.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    // The delegate's account removed (its sessions and delegations' answers with it): the code is refused.
    await h.tdb.db.updateTable("delegations").set({ responded_by: null }).where("id", "=", d.id).execute();
    await h.tdb.db.deleteFrom("sessions").where("parent_id", "=", gone.id).execute();
    await h.tdb.db.deleteFrom("parents").where("id", "=", gone.id).execute();
    const res = await enroll(h, code.token, "GONE-PHONE-0100");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ respones_msg: CODE_NO_LONGER_VALID });

    expect((await revokeDelegation(h.tdb.db, h.demo.id, d.id)).ok).toBe(true);
    expect(await h.caller(h.demo).enrollment.removeRevokedDelegatePhones({ delegationId: d.id })).toEqual({ phones: [] });
    expect(await h.caller(h.demo).enrollment.removeRevokedDelegatePhones({ delegationId: d.id })).toEqual({ phones: [] });
  });

  it("a delegate's Replace phone is shown to the owner (a portal notification naming the delegate and the phone)", async () => {
    const mia = await h.kid(MIA);
    const other = await createParent(h.tdb.db, {
      email: "replacer@delegate.example",
      name: "Rita",
      passwordHash: null,
      emailVerified: true,
    });
    const owner = (await h.tdb.db.selectFrom("parents").selectAll().where("id", "=", h.demo.id).executeTakeFirstOrThrow()) as Parent;
    const d = await createDelegation(h.tdb.db, owner, {
      email: other.email,
      name: "Rita",
      allowedKids: [mia.profileId],
      accessLevel: "full",
    });
    if (!d.ok) throw new Error(d.message);
    expect((await answerDelegation(h.tdb.db, other, d.id, "Accepted")).ok).toBe(true);
    await h.phone(MIA, { reconnect: false });
    await h.caller(identity(other)).enrollment.replacePhone({ profileId: mia.profileId, serialNumber: MIA });
    const notes = await h.tdb.db
      .selectFrom("parent_notifications")
      .select(["message", "link"])
      .where("recipient_email", "=", owner.email)
      .execute();
    expect(notes).toContainEqual({
      message: `Rita replaced Mia's phone: the old phone (${MIA}) was removed from your account.`,
      link: `/kids-device?profileId=${mia.profileId}`,
    });
    // The owner's own Replace phone is no news to the owner.
    const count = notes.length;
    await h.phone(MIA, { reconnect: false });
    await h.caller(h.demo).enrollment.replacePhone({ profileId: mia.profileId, serialNumber: MIA });
    const after = await h.tdb.db.selectFrom("parent_notifications").select("id").where("recipient_email", "=", owner.email).execute();
    expect(after).toHaveLength(count);
  });
});
