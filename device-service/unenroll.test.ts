import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { newId, nowIso } from "../core/ids.server";
import { getKidOverview } from "../db/queries/dashboard/overview";
import { listKidsForParent } from "../db/queries/kids";
import { ensureFilterIdsForAllKids, findKidByFilterId } from "../db/queries/web-filter/settings";
import type { BusMessage } from "./bus";
import { SimulatedPhone } from "./simulator/phone";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";
import { latestPolicy } from "./policy/store";

// More phones any time: a kid's phone is replaced (the old one unenrolled, its history kept) and a kid is removed.
const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

function disconnected(phone: SimulatedPhone): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => phone.once("disconnected", (code: number, reason: string) => resolve({ code, reason })));
}

async function openCommand(h: Harness, deviceId: string, status: "queued" | "sent") {
  const id = newId();
  await h.tdb.db
    .insertInto("device_commands")
    .values({
      id,
      device_id: deviceId,
      type: "LOCK",
      payload: "{}",
      status,
      policy_version: null,
      issued_by: h.demo.id,
      error: null,
      result: null,
      created_at: nowIso(),
      sent_at: null,
      completed_at: null,
      expires_at: null,
    })
    .execute();
  return id;
}

describe.each(DIALECTS)("device service: replacing and removing phones on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("replacing a kid's phone unenrolls the old one: socket closed, credential refused, open commands end, history stays", async () => {
    const mia = await h.kid(MIA);
    const phone = await h.phone(MIA, { reconnect: false });
    // The gateway's first delivery pass for this connection must be over before the open commands are written,
    // or it could deliver them and the phone acknowledge them: one real command, received, marks that point.
    const warm = await h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "LOCK" });
    await phone.waitForCommand("LOCK", 10_000, (c) => c.id === warm.commandId);
    await waitFor(
      async () =>
        (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", warm.commandId).executeTakeFirstOrThrow())
          .status === "acknowledged",
    );
    const queued = await openCommand(h, mia.deviceId, "queued");
    const sent = await openCommand(h, mia.deviceId, "sent");
    const usageBefore = await h.tdb.db
      .selectFrom("app_usage_daily")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("device_id", "=", mia.deviceId)
      .executeTakeFirstOrThrow();
    const closed = disconnected(phone);

    const res = await h.caller(h.demo).enrollment.replacePhone({ profileId: mia.profileId, serialNumber: MIA });
    expect(res.respones_msg).toBe(
      "Mia's old phone (DEMO-MIA-0001) was removed from your account. Its history stays with Mia. Now add the new phone.",
    );

    const close = await closed;
    expect(close.code).toBe(4003);
    expect(close.reason).toBe("Phone removed from the account");
    const again = new SimulatedPhone({ baseUrl: h.url, serialNumber: MIA, credential: phone.credential, reconnect: false });
    await expect(again.connect()).rejects.toThrow(/HTTP 401/);

    const commands = await h.tdb.db
      .selectFrom("device_commands")
      .select(["id", "status", "error"])
      .where("id", "in", [queued, sent])
      .execute();
    expect(commands.map((c) => c.status)).toEqual(["failed", "failed"]);
    expect(commands[0].error).toBe("The phone was removed from the account.");

    const row = await h.tdb.db.selectFrom("devices").selectAll().where("id", "=", mia.deviceId).executeTakeFirstOrThrow();
    expect(row.profile_id).toBe(mia.profileId);
    expect(row.credential_hash).toBeNull();
    expect(row.unenrolled_at).not.toBeNull();
    const usageAfter = await h.tdb.db
      .selectFrom("app_usage_daily")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("device_id", "=", mia.deviceId)
      .executeTakeFirstOrThrow();
    expect(Number(usageAfter.n)).toBe(Number(usageBefore.n));
    expect(Number(usageAfter.n)).toBeGreaterThan(0);

    // The kid now has no phone: the dashboard and the switcher say so.
    expect((await getKidOverview(h.tdb.db, mia.profileId))?.device).toBeNull();
    const kids = await listKidsForParent(h.tdb.db, h.demo);
    expect(kids.find((k) => k.id === mia.profileId)).toMatchObject({ serialNumber: null, phone: "none" });

    // Commands to the removed phone are refused with a clear message.
    await expect(h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "LOCK" })).rejects.toMatchObject({
      message: "This phone was removed from the account.",
    });

    // A new phone enrolls for the kid and becomes the dashboard's phone.
    const { token } = await h.caller(h.demo).enrollment.createToken({ profileId: mia.profileId });
    const fresh = new SimulatedPhone({ baseUrl: h.url, serialNumber: "MIA-NEW-0100", reconnect: false });
    await fresh.enroll(token);
    await fresh.connect();
    expect((await getKidOverview(h.tdb.db, mia.profileId))?.device?.serialNumber).toBe("MIA-NEW-0100");
    expect((await listKidsForParent(h.tdb.db, h.demo)).find((k) => k.id === mia.profileId)).toMatchObject({
      serialNumber: "MIA-NEW-0100",
      phone: "online",
    });
    await fresh.close();

    // The old phone, enrolled again later in the same family, comes back (its removal cleared).
    const back = await h.caller(h.demo).enrollment.createToken({ profileId: mia.profileId });
    const old = new SimulatedPhone({ baseUrl: h.url, serialNumber: MIA, reconnect: false });
    await old.enroll(back.token);
    const reEnrolled = await h.tdb.db
      .selectFrom("devices")
      .select(["unenrolled_at", "credential_hash"])
      .where("id", "=", mia.deviceId)
      .executeTakeFirstOrThrow();
    expect(reEnrolled.unenrolled_at).toBeNull();
    expect(reEnrolled.credential_hash).not.toBeNull();
  });

  it("replacing a phone revokes the kid's web filter id and makes a new one (decision 015), and the parent is told where to set it", async () => {
    await ensureFilterIdsForAllKids(h.tdb.db);
    const mia = await h.kid(MIA);
    const filterId = async () =>
      (
        await h.tdb.db
          .selectFrom("web_filter_settings")
          .select("filter_id")
          .where("profile_id", "=", mia.profileId)
          .executeTakeFirstOrThrow()
      ).filter_id;
    const heard: BusMessage[] = [];
    const unsubscribe = h.bus.subscribe((m) => heard.push(m));
    // Policies name the kid's Private DNS hostname (the web filter on, as under npm start).
    h.runtime.deps.privateDnsDomain = "dns.test";
    try {
      // Mia has two phones now (the new one and the old one enrolled again): replacing one, the other needs the new hostname too.
      const first = await filterId();
      const res = await h.caller(h.demo).enrollment.replacePhone({ profileId: mia.profileId, serialNumber: "MIA-NEW-0100" });
      expect(res.respones_msg).toBe(
        "Mia's old phone (MIA-NEW-0100) was removed from your account. Its history stays with Mia. Now add the new phone. " +
          "Mia's web filter has a new Private DNS hostname: the new phone and Mia's other phones get it with their policy, or set it by hand (Web Filter page).",
      );
      const second = await filterId();
      expect(second).not.toBe(first);
      // The removed phone, still set to the old hostname, is refused; the kid's phones are served on the new one.
      expect(await findKidByFilterId(h.tdb.db, first)).toBeUndefined();
      expect(await findKidByFilterId(h.tdb.db, second)).toBe(mia.profileId);
      // Every process serving the filter hears it and reloads the kid.
      await waitFor(async () => heard.some((m) => m.type === "web-filter.kid" && m.profileId === mia.profileId));
      // The kid's remaining phone gets the new hostname in its policy.
      expect((await latestPolicy(h.tdb.db, mia.deviceId))?.doc.privateDns?.hostname).toBe(`${second}.dns.test`);

      const last = await h.caller(h.demo).enrollment.replacePhone({ profileId: mia.profileId, serialNumber: MIA });
      expect(last.respones_msg).toBe(
        "Mia's old phone (DEMO-MIA-0001) was removed from your account. Its history stays with Mia. Now add the new phone. " +
          "Mia's web filter has a new Private DNS hostname: the new phone gets it with its policy, or set it by hand (Web Filter page).",
      );
      expect(await findKidByFilterId(h.tdb.db, second)).toBeUndefined();
      expect(await findKidByFilterId(h.tdb.db, await filterId())).toBe(mia.profileId);
    } finally {
      unsubscribe();
      h.runtime.deps.privateDnsDomain = undefined;
    }
  });

  it("another family cannot replace a phone that is not theirs", async () => {
    const leo = await h.kid(LEO);
    await expect(h.caller(h.other).enrollment.replacePhone({ profileId: leo.profileId, serialNumber: LEO })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      h.caller(h.demo).enrollment.replacePhone({ profileId: leo.profileId, serialNumber: h.other.serialNumber }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("removing a kid unenrolls its phone (socket closed) and deletes the kid with its history; only the owner may", async () => {
    const leo = await h.kid(LEO);
    await expect(h.caller(h.other).kids.remove({ profileId: leo.profileId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // A delegate with accepted access sees Leo but may not remove him.
    const delegation = newId();
    await h.tdb.db
      .insertInto("delegations")
      .values({
        id: delegation,
        owner_parent_id: h.demo.id,
        delegate_email: h.other.email,
        delegate_name: "Other",
        status: "Accepted",
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    await h.tdb.db.insertInto("delegation_kids").values({ delegation_id: delegation, profile_id: leo.profileId }).execute();
    await expect(h.caller(h.other).kids.remove({ profileId: leo.profileId })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Only Leo's own parent can remove Leo.",
    });
    const phone = await h.phone(LEO, { reconnect: false });
    const closed = disconnected(phone);
    const res = await h.caller(h.demo).kids.remove({ profileId: leo.profileId });
    expect(res.respones_msg).toBe("Leo was removed from your account.");
    expect((await closed).code).toBe(4003);
    expect(await h.tdb.db.selectFrom("kid_profiles").select("id").where("id", "=", leo.profileId).executeTakeFirst()).toBeUndefined();
    expect(await h.tdb.db.selectFrom("devices").select("id").where("id", "=", leo.deviceId).executeTakeFirst()).toBeUndefined();
    expect(
      await h.tdb.db.selectFrom("app_usage_daily").select("device_id").where("device_id", "=", leo.deviceId).executeTakeFirst(),
    ).toBeUndefined();
  });
});
