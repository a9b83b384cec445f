import type { SerializeFrom } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEnrollmentToken, exchangeEnrollmentToken } from "#device-service/enrollment";
import { parentIdsForKid } from "#device-service/parents";
import { createParent } from "#db/queries/parents";
import { createSession } from "#db/queries/sessions";
import { createAuthzFixture, type Fixture } from "../authz.testing";
import { readToast } from "~/utils/toast.server";
import { TIME_ZONE_MESSAGE } from "#core/time-values";
import { action, loader } from "./_app.parent-profile";
import { loader as dashboardLoader } from "./_app.kids-device";

// /parent-profile through its real loader and action (SQLite; mail goes to the dev outbox).
describe("/parent-profile", () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createAuthzFixture("sqlite");
  });
  afterAll(async () => {
    await fx?.close();
  });

  const post = async (actor: Parameters<Fixture["request"]>[0], form: Record<string, string | string[]>, url = "/parent-profile") => {
    try {
      return (await action({ request: fx.request(actor, "POST", url, form), context: fx.context(), params: {} })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  const toastOf = async (res: Response) =>
    (await readToast(new Request("http://x/", { headers: { Cookie: res.headers.get("Set-Cookie")!.split(";")[0]! } }))).toast;
  const mailsTo = (to: string) =>
    fx.t.db.selectFrom("mail_outbox").selectAll().where("to_address", "=", to).orderBy("created_at").orderBy("id").execute();
  const notesOf = (email: string) =>
    fx.t.db.selectFrom("parent_notifications").select("message").where("recipient_email", "=", email).execute();
  const statusOf = async (id: string) =>
    (await fx.t.db.selectFrom("delegations").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
  const view = async (actor: Parameters<Fixture["request"]>[0], url = "/parent-profile") =>
    (await (await loader({ request: fx.request(actor, "GET", url), context: fx.context(), params: {} })).json()) as SerializeFrom<
      typeof loader
    >;

  it("add a kid (issue 11): the kid switcher's form, here too; bad input keeps the popup with its message", async () => {
    expect((await view("owner", "/parent-profile?modal=add-kid")).modal).toBe("add-kid");
    const before = (await view("owner")).ownKids.length;
    const bad = await post(
      "owner",
      { intent: "add-kid", kidName: "", birthMonth: "5", birthYear: "2016" },
      "/parent-profile?modal=add-kid",
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ intent: "add-kid", result: { error: { kidName: [expect.any(String)] } } });
    const res = await post(
      "owner",
      { intent: "add-kid", kidName: "Nora", birthMonth: "5", birthYear: "2016" },
      "/parent-profile?modal=add-kid",
    );
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toEqual({ type: "success", message: "Nora was added. Now add their phone." });
    const kids = (await view("owner")).ownKids;
    expect(kids).toHaveLength(before + 1);
    const nora = kids.find((k) => k.name === "Nora")!;
    expect(res.headers.get("Location")).toBe(`/kids-device?profileId=${nora.id}&modal=enroll`);
  });

  it("add: username, name and a kid are required ('Please fill all required fields.')", async () => {
    const forms: Record<string, string>[] = [
      {},
      { username: "zoe", name: "Zoe" },
      { username: "", name: "Zoe", allowedKids: fx.ids.profileId },
      { username: "zoe", name: " ", allowedKids: fx.ids.profileId },
    ];
    for (const form of forms) {
      const res = await post("owner", { intent: "add", ...form }, "/parent-profile?modal=add");
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("Please fill all required fields.");
    }
  });

  it("add: only the owner's own kids can be shared (a delegate cannot pass access on)", async () => {
    const res = await post("accepted", { intent: "add", username: "mallory", name: "Mallory", allowedKids: fx.ids.profileId });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Please choose among your own kids.");
  });

  it("add: invites username@owner's domain with full access; the invitee gets a mail and a portal notification (sign up when they have no account)", async () => {
    const res = await post("owner", { intent: "add", username: "Zoe", name: "Zoe", allowedKids: [fx.ids.profileId, fx.ids.otherKidId] });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toEqual({
      type: "success",
      message: "Invitation sent to zoe@family.example. Zoe gets access to Leo and Mia after accepting.",
    });
    const [mail] = await mailsTo("zoe@family.example");
    expect(mail!.subject).toBe("Alice gave you access to Leo and Mia");
    expect(mail!.text_body).toContain("http://localhost:4399/parent-profile");
    expect(mail!.text_body).toContain("Sign up with this address (zoe@family.example)");
    expect(await notesOf("zoe@family.example")).toEqual([{ message: "Alice gave you access to Leo and Mia" }]);
    const data = await view("owner");
    expect(data.given.find((d) => d.delegateEmail === "zoe@family.example")).toMatchObject({ status: "Pending", accessLevel: "full" });
  });

  it("an unverified invitee sees the invitation, is asked to verify, and cannot accept", async () => {
    const frank = await createParent(fx.t.db, { email: "frank@family.example", name: "Frank", passwordHash: null });
    await post("owner", { intent: "add", username: "frank", name: "Frank", allowedKids: fx.ids.otherKidId });
    const token = await createSession(fx.t.db, frank.id, { idleMinutes: 60, absoluteDays: 1 });
    const req = (method: "GET" | "POST", form?: Record<string, string>) =>
      new Request("http://localhost/parent-profile", {
        method,
        headers: { Authorization: `Bearer ${token}` },
        ...(form ? { body: new URLSearchParams(form) } : {}),
      });
    const data = (await (await loader({ request: req("GET"), context: fx.context(), params: {} })).json()) as {
      parent: { verified: boolean };
      received: { id: string; status: string }[];
    };
    expect(data.parent.verified).toBe(false);
    const [invitation] = data.received;
    expect(invitation).toMatchObject({ status: "Pending" });
    const res = (await action({
      request: req("POST", { intent: "accept", id: invitation!.id }),
      context: fx.context(),
      params: {},
    })) as Response;
    expect((await toastOf(res))?.message).toMatch(/^Please verify your email address \(frank@family\.example\) before accepting/);
    expect(await statusOf(invitation!.id)).toBe("Pending");
    const resend = (await action({
      request: req("POST", { intent: "resend-verification" }),
      context: fx.context(),
      params: {},
    })) as Response;
    expect(await toastOf(resend)).toEqual({ type: "success", message: "We've sent a verification link to frank@family.example." });
    expect((await mailsTo("frank@family.example")).map((m) => m.subject)).toContain("Verify your email address");
  });

  it("accept and reject tell the owner (notification and mail); reject shows Rejected to the owner", async () => {
    const pending = fx.delegationIds.pending;
    const res = await post("pending", { intent: "reject", id: pending });
    expect(await toastOf(res)).toEqual({ type: "success", message: "Invitation rejected." });
    expect((await view("owner")).given.find((d) => d.id === pending)?.status).toBe("Rejected");
    expect((await mailsTo("alice@family.example")).map((m) => m.subject)).toContain("Carol rejected access to Mia");
    expect(await notesOf("alice@family.example")).toContainEqual({ message: "Carol rejected access to Mia" });
    // Re-inviting after the rejection makes a new pending invitation, which Carol (verified) accepts.
    await post("owner", { intent: "add", username: "carol", name: "Carol", allowedKids: fx.ids.profileId });
    const fresh = (await view("pending")).received.find((d) => d.status === "Pending");
    expect(await toastOf(await post("pending", { intent: "accept", id: fresh!.id }))).toEqual({
      type: "success",
      message: "You now have access to Mia.",
    });
    expect((await mailsTo("alice@family.example")).map((m) => m.subject)).toContain("Carol accepted access to Mia");
  });

  it("revoke ends access at once: the delegate is told, their live stream is told to reload and ends, their next request is refused", async () => {
    // Bob enrolled a phone for Mia with a code of his own (issue 52): revoking removes it and tells Alice which.
    const { token } = await createEnrollmentToken(fx.t.db, { profileId: fx.ids.profileId, parentId: fx.parents.accepted.id });
    const bobs = await exchangeEnrollmentToken(fx.t.db, token, { serialNumber: "BOBS-PHONE-1" });
    const before = fx.published.length;
    const res = await post("owner", { intent: "revoke", id: fx.delegationIds.accepted });
    expect(await toastOf(res)).toEqual({
      type: "success",
      message: "Bob's access has been revoked. The phone Bob enrolled was removed: Mia's phone (BOBS-PHONE-1).",
    });
    expect(await notesOf("alice@family.example")).toContainEqual({
      message: "You revoked Bob's access. The phone Bob enrolled was removed: Mia's phone (BOBS-PHONE-1).",
    });
    const removed = await fx.t.db
      .selectFrom("devices")
      .select(["credential_hash", "unenrolled_at"])
      .where("id", "=", bobs.deviceId)
      .executeTakeFirstOrThrow();
    expect(removed.credential_hash).toBeNull();
    expect(removed.unenrolled_at).not.toBeNull();
    // Alice's own phone of Mia's stays.
    expect(
      (await fx.t.db.selectFrom("devices").select("unenrolled_at").where("id", "=", fx.ids.deviceId).executeTakeFirstOrThrow())
        .unenrolled_at,
    ).toBeNull();
    const published = fx.published.slice(before);
    expect(published).toContainEqual({ type: "device.unenrolled", deviceId: bobs.deviceId });
    expect(published).toContainEqual({
      type: "parent.refresh",
      parentIds: [fx.parents.accepted.id],
      profileId: fx.ids.profileId,
      reason: "access.revoked",
    });
    // The refresh first, then the end of Bob's streams (app/utils/sse.server.test.ts follows a real one).
    const refreshAt = published.findIndex((m) => m.type === "parent.refresh");
    const endAt = published.findIndex((m) => m.type === "parent.streams.end");
    expect(published[endAt]).toEqual({ type: "parent.streams.end", parentIds: [fx.parents.accepted.id], reason: "access-revoked" });
    expect(endAt).toBeGreaterThan(refreshAt);
    // Submitted again: nothing left to remove.
    expect(await toastOf(await post("owner", { intent: "revoke", id: fx.delegationIds.accepted }))).toEqual({
      type: "error",
      message: "This access has already ended.",
    });
    expect(await parentIdsForKid(fx.t.db, fx.ids.profileId)).not.toContain(fx.parents.accepted.id);
    expect((await mailsTo("bob@family.example")).map((m) => m.subject)).toContain("Alice ended your access to Mia");
    expect(await notesOf("bob@family.example")).toContainEqual({ message: "Alice ended your access to Mia" });
    const next = await dashboardLoader({
      request: fx.request("accepted", "GET", `/kids-device?profileId=${fx.ids.profileId}`),
      context: fx.context(),
      params: {},
    }).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(Response);
    expect((next as Response).status).toBe(404);
  });

  it("the confirm modal comes from the URL, only for the parent's own rows; the name can be changed", async () => {
    const data = await view("owner", `/parent-profile?confirm=revoke&id=${fx.delegationIds.revoked}`);
    expect(data.confirm).toMatchObject({ kind: "revoke", row: { id: fx.delegationIds.revoked } });
    expect((await view("stranger", `/parent-profile?confirm=revoke&id=${fx.delegationIds.revoked}`)).confirm).toBeNull();
    expect((await view("owner", "/parent-profile?modal=add")).modal).toBe("add");
    const res = await post("owner", { intent: "name", parentName: "  Alice Smith " });
    expect(await toastOf(res)).toEqual({ type: "success", message: "Your name has been saved." });
    expect((await view("owner")).parent.name).toBe("Alice Smith");
    expect((await post("owner", { intent: "name", parentName: "" })).status).toBe(400);
  });
  it("time zone: shown, refused with a clear message when Intl does not know it, saved (the kids' policies follow) with a toast", async () => {
    expect((await view("owner")).timeZone.saved).toBe("UTC");
    const bad = await post("owner", { intent: "time-zone", timeZone: "Mars/Olympus_Mons" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ intent: "time-zone", error: TIME_ZONE_MESSAGE });
    const ok = await post("owner", { intent: "time-zone", timeZone: "Europe/London" });
    expect(ok.headers.get("Location")).toBe("/parent-profile#time-zone");
    expect(await toastOf(ok)).toEqual({ type: "success", message: "Your time zone is Europe/London." });
    const data = await view("owner");
    expect(data.timeZone.saved).toBe("Europe/London");
    expect(data.timeZone.zones).toContain("America/Los_Angeles");
  });
});
