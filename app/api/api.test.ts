import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "#db/queries/api-tokens";
import { hashPassword } from "#core/password.server";
import { createAuthzFixture, type Fixture } from "../authz.testing";
import { sleepMode, kidsList } from "./calls/device";
import { login, resetPassword, sendForgetPasswordLink, verifyEmail, verifyOtpCall } from "./calls/users";
import { newLink } from "../utils/links.server";
import { MESSAGES } from "./envelope";
import { startApiHarness, type ApiHarness } from "./probes.testing";
import { API_BASE } from "./router.server";
import {
  appDetail,
  categoryDetail,
  categoryDetailChart,
  parentRatingCall,
  parentRecommended,
  playstore,
  playstoreSearch,
  profileApplicationList,
} from "./calls/application";
import { installedApp, installedStoreApp } from "../authz-probes.testing";

/** Bad input and safety (issue 56): the spec's envelope, the right status, and nothing changed. */
let fx: Fixture;
let h: ApiHarness;
const logged: string[] = [];

beforeAll(async () => {
  fx = await createAuthzFixture();
  const services = fx.context().services as { log: (...a: unknown[]) => void };
  services.log = (...a: unknown[]) => void logged.push(JSON.stringify(a));
  h = await startApiHarness(fx, { callsPerMinute: 20 });
});
afterAll(async () => {
  await h?.close();
  await fx?.close();
});

const sleepOf = async () =>
  (await fx.t.db.selectFrom("kid_profiles").select("sleep_mode").where("id", "=", fx.ids.profileId).executeTakeFirstOrThrow()).sleep_mode;

async function raw(path: string, init: RequestInit & { token?: string | null } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  const res = await fetch(`${h.base}${API_BASE}${path}`, { ...init, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("/api/v1: bad input", () => {
  it("malformed JSON is a 400 with respones_msg, nothing changed", async () => {
    const token = await h.token("owner");
    const before = await sleepOf();
    const r = await raw("/device-profile/update/sleepMode", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: '{"profileId": ',
    });
    expect(r).toEqual({ status: 400, body: { respones_msg: "The request is not valid JSON." } });
    expect(await sleepOf()).toBe(before);
  });

  it("a wrong type, a missing field and an unknown field are 400s that name the field", async () => {
    const wrong = await h.call(sleepMode, "owner", { profileId: fx.ids.profileId, sleepMode: "yes" });
    expect(wrong).toEqual({ status: 400, body: { respones_msg: "sleepMode must be a boolean, not string." } });
    const missing = await h.call(sleepMode, "owner", { profileId: fx.ids.profileId });
    expect(missing).toEqual({ status: 400, body: { respones_msg: "sleepMode is required." } });
    const unknown = await h.call(sleepMode, "owner", { profileId: fx.ids.profileId, sleepMode: true, admin: true });
    expect(unknown).toEqual({ status: 400, body: { respones_msg: "Unknown field: admin." } });
    const unknownQuery = await h.call(kidsList, "owner", { pageSize: "5", debug: "1" });
    expect(unknownQuery.status).toBe(400);
    expect(unknownQuery.body.respones_msg).toBe("Unknown field: debug.");
    const array = await raw("/device-profile/update/sleepMode", {
      method: "POST",
      token: await h.token("owner"),
      headers: { "Content-Type": "application/json" },
      body: "[1]",
    });
    expect(array).toEqual({ status: 400, body: { respones_msg: "The body must be a JSON object." } });
  });

  it("a body over 64 KB is a 413, a body that is not JSON a 415", async () => {
    const token = await h.token("owner");
    const huge = await raw("/device-profile/update/sleepMode", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ profileId: fx.ids.profileId, sleepMode: true, pad: "x".repeat(70_000) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.respones_msg).toBe("The request is too large.");
    const form = await raw("/device-profile/update/sleepMode", {
      method: "POST",
      token,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "sleepMode=true",
    });
    expect(form).toEqual({ status: 415, body: { respones_msg: MESSAGES.notJson } });
  });

  it("an unknown path is a 404 and a wrong method a 405, both enveloped", async () => {
    const token = await h.token("owner");
    expect(await raw("/device/nothing-here", { token })).toEqual({ status: 404, body: { respones_msg: MESSAGES.notFound } });
    expect(await raw("/device-profile/update/sleepMode", { token })).toEqual({ status: 405, body: { respones_msg: MESSAGES.method } });
  });

  it("another family's kid is a 404 that reveals nothing, and nothing changes", async () => {
    const before = (
      await fx.t.db.selectFrom("kid_profiles").select("sleep_mode").where("id", "=", fx.ids.strangerProfileId).executeTakeFirstOrThrow()
    ).sleep_mode;
    const r = await h.call(sleepMode, "owner", { profileId: fx.ids.strangerProfileId, sleepMode: true });
    expect(r).toEqual({ status: 404, body: { respones_msg: "We couldn't find this kid in your account." } });
    const after = (
      await fx.t.db.selectFrom("kid_profiles").select("sleep_mode").where("id", "=", fx.ids.strangerProfileId).executeTakeFirstOrThrow()
    ).sleep_mode;
    expect(after).toBe(before);
  });
});

describe("/api/v1: tokens", () => {
  it("no token, an unknown, expired or revoked token: 401 with is_logout 1", async () => {
    expect(await h.call(kidsList, null, {})).toEqual({ status: 401, body: { respones_msg: MESSAGES.signIn, is_logout: 1 } });
    expect(await h.call(kidsList, "kp_" + "a".repeat(43), {})).toEqual({
      status: 401,
      body: { respones_msg: MESSAGES.unknownToken, is_logout: 1 },
    });
    const expired = await createApiToken(fx.t.db, fx.parents.owner.id, {
      name: "old",
      scope: "control",
      expiresAt: new Date(Date.now() - 1000),
    });
    expect(await h.call(kidsList, expired.token, {})).toEqual({ status: 401, body: { respones_msg: MESSAGES.expiredToken, is_logout: 1 } });
    const live = await createApiToken(fx.t.db, fx.parents.owner.id, {
      name: "ci",
      scope: "control",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect((await h.call(kidsList, live.token, {})).status).toBe(200);
    await fx.t.db.updateTable("api_tokens").set({ revoked_at: new Date().toISOString() }).where("id", "=", live.row.id).execute();
    expect(await h.call(kidsList, live.token, {})).toEqual({ status: 401, body: { respones_msg: MESSAGES.revokedToken, is_logout: 1 } });
  });

  it("a read-scoped token reads, and is refused (403) every call that changes something, nothing changed", async () => {
    const read = await createApiToken(fx.t.db, fx.parents.owner.id, {
      name: "dash",
      scope: "read",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect((await h.call(kidsList, read.token, {})).status).toBe(200);
    const before = await sleepOf();
    const r = await h.call(sleepMode, read.token, { profileId: fx.ids.profileId, sleepMode: !before });
    expect(r).toEqual({ status: 403, body: { respones_msg: MESSAGES.readScope } });
    expect(await sleepOf()).toBe(before);
    const row = await fx.t.db.selectFrom("api_tokens").select("last_used_at").where("id", "=", read.row.id).executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it("a delegate's token reaches only the kids shared with them, until the access is revoked", async () => {
    const t = await createApiToken(fx.t.db, fx.parents.accepted.id, {
      name: "gran",
      scope: "control",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const list = await h.call(kidsList, t.token, {});
    expect((list.body.data as { _id: string }[]).map((k) => k._id)).toEqual([fx.ids.profileId]);
    expect((await h.call(sleepMode, t.token, { profileId: fx.ids.otherKidId, sleepMode: true })).status).toBe(404);
    await fx.t.db.updateTable("delegations").set({ status: "Revoked" }).where("id", "=", fx.delegationIds.accepted).execute();
    expect((await h.call(sleepMode, t.token, { profileId: fx.ids.profileId, sleepMode: true })).status).toBe(404);
    expect((await h.call(kidsList, t.token, {})).body.data).toEqual([]);
    await fx.t.db.updateTable("delegations").set({ status: "Accepted" }).where("id", "=", fx.delegationIds.accepted).execute();
  });

  it("limits calls per token a minute (429 with Retry-After), each token on its own allowance", async () => {
    const a = await createApiToken(fx.t.db, fx.parents.owner.id, {
      name: "busy",
      scope: "read",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const b = await createApiToken(fx.t.db, fx.parents.owner.id, {
      name: "calm",
      scope: "read",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await h.call(kidsList, a.token, {})).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    const last = await fetch(`${h.base}${API_BASE}/device/kids-list`, { headers: { Authorization: `Bearer ${a.token}` } });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await last.json()) as { respones_msg: string }).respones_msg).toBe(MESSAGES.rateLimited);
    expect((await h.call(kidsList, b.token, {})).status).toBe(200);
  });

  it("signs in with the password (and the emailed code when two-step is on); the session token works as a bearer", async () => {
    await fx.t.db
      .updateTable("parents")
      .set({ password_hash: await hashPassword("Secret-Pass-2026") })
      .where("id", "=", fx.parents.pending.id)
      .execute();
    const bad = await h.call(login, null, { email: fx.parents.pending.email, password: "nope" });
    expect(bad).toEqual({ status: 400, body: { respones_msg: "Invalid email or password." } });
    const unknown = await h.call(login, null, { email: "who@nowhere.example", password: "nope" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.invalidEmail).toBe(true);
    const ok = await h.call(login, null, { email: fx.parents.pending.email, password: "Secret-Pass-2026" });
    expect(ok.status).toBe(200);
    const token = (ok.body.data as { token: string }).token;
    expect(ok.body.enable_two_step_email_verification).toBe(false);
    expect((await h.call(kidsList, token, {})).status).toBe(200);

    await fx.t.db.updateTable("parents").set({ two_step_enabled: 1 }).where("id", "=", fx.parents.pending.id).execute();
    const first = await h.call(login, null, { email: fx.parents.pending.email, password: "Secret-Pass-2026" });
    expect(first.body.enable_two_step_email_verification).toBe(true);
    const data = first.body.data as { token: null; twoStepToken: string };
    expect(data.token).toBeNull();
    const mail = await fx.t.db
      .selectFrom("mail_outbox")
      .select("text_body")
      .where("to_address", "=", fx.parents.pending.email)
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    const code = /code is: (\d+)/.exec(mail.text_body)![1]!;
    const wrongToken = await h.call(verifyOtpCall, null, { otp: code, email: fx.parents.pending.email, twoStepToken: "forged" });
    expect(wrongToken.status).toBe(400);
    const done = await h.call(verifyOtpCall, null, { otp: code, email: fx.parents.pending.email, twoStepToken: data.twoStepToken });
    expect(done.body).toMatchObject({ respones_msg: "Signed in." });
    expect(done.status).toBe(200);
    expect((await h.call(kidsList, (done.body.data as { token: string }).token, {})).status).toBe(200);
  });

  it("never writes a token to the log", async () => {
    const t = await createApiToken(fx.t.db, fx.parents.owner.id, {
      name: "log",
      scope: "control",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    await h.call(kidsList, t.token, { pageSize: "x" });
    await h.call(sleepMode, t.token, { profileId: fx.ids.profileId, sleepMode: "x" });
    const session = await h.token("owner");
    await h.call(kidsList, session, {});
    const all = logged.join("\n");
    expect(all).not.toContain(t.token);
    expect(all).not.toContain(session!);
    expect(all).not.toContain("kp_");
  });
});

describe("/api/v1: the pages' calls", () => {
  it("category detail and its chart: the /category page's data for the parent's kid; another family's phone is a 404", async () => {
    const { packageName, category } = await installedApp(fx);
    const day = new Date().toISOString().slice(0, 10);
    await fx.t.db
      .insertInto("app_usage_daily")
      .values({ device_id: fx.ids.deviceId, package_name: packageName!, day, minutes: 25 })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const detail = await h.call(categoryDetail, "owner", { id: category!, serialNumber: fx.ids.serialNumber, filterType: "week" });
    expect(detail.status).toBe(200);
    const data = detail.body.data as { category: string; usedTime: number; apps: { packageName: string; timeInMinute: number }[] };
    expect(data.category).toBe(category);
    expect(data.apps.find((a) => a.packageName === packageName)?.timeInMinute).toBeGreaterThanOrEqual(25);
    expect(data.usedTime).toBeGreaterThanOrEqual(25);
    expect(detail.body).not.toHaveProperty("data.chart");
    const chart = await h.call(categoryDetailChart, "owner", {
      profileId: fx.ids.profileId,
      serialNumber: fx.ids.serialNumber,
      playStoreCategory: category!,
      filterType: "week",
    });
    expect(chart.status).toBe(200);
    expect(chart.body).toMatchObject({ deviceDetail: { _id: fx.ids.deviceId, serialNumber: fx.ids.serialNumber } });
    expect((chart.body.data as { slots: string[] }).slots).toHaveLength(7);
    expect(chart.body.totalUsedTime).toBe(data.usedTime);
    // Another family's phone, and the owner's phone under another family's kid: 404s that reveal nothing.
    const theirs = await h.call(categoryDetail, "owner", { id: category!, serialNumber: fx.ids.strangerSerial });
    expect(theirs.status).toBe(404);
    const mixed = await h.call(categoryDetailChart, "owner", {
      profileId: fx.ids.strangerProfileId,
      serialNumber: fx.ids.serialNumber,
      playStoreCategory: category!,
    });
    expect(mixed.status).toBe(404);
    const unknown = await h.call(categoryDetail, "owner", { id: "NO_SUCH_CATEGORY", serialNumber: fx.ids.serialNumber });
    expect(unknown).toEqual({ status: 404, body: { respones_msg: "Category not found." } });
  });

  it("application detail and the parent's rating: the /application page's data and its rating intent; another family's kid is a 404", async () => {
    const { packageName } = await installedApp(fx);
    const pkg = packageName!;
    const kidOf = { profile_id: fx.ids.profileId, serialNumber: fx.ids.serialNumber, package_name: pkg };
    const stars = { isEducational: 4, isPositive: 4, isSuitableContent: 4, isEasyToUnderstand: 4 };
    const rated = await h.call(parentRatingCall, "owner", {
      profileId: fx.ids.profileId,
      packageName: pkg,
      ...stars,
      isRecommend: true,
      review: " Good ",
    });
    expect(rated.status).toBe(200);
    const row = await fx.t.db
      .selectFrom("parent_ratings")
      .select(["is_recommend", "review"])
      .where("parent_id", "=", fx.parents.owner.id)
      .where("package_name", "=", pkg)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_recommend: 1, review: "Good" });
    const detail = await h.call(appDetail, "owner", kidOf);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ data: { package_name: pkg, appExist: true }, parentRating: { totalParentsRating: 1 } });
    expect((detail.body.data as { _id: string | null })._id).toEqual(expect.any(String));
    expect(detail.body.overallRating).toBe(4);
    // Bad stars are a 400 that names the field; another family's kid (or its phone) a 404; nothing stored for them.
    const bad = await h.call(parentRatingCall, "owner", { profileId: fx.ids.profileId, packageName: pkg, ...stars, isPositive: 6 });
    expect(bad.status).toBe(400);
    expect(bad.body.respones_msg).toContain("isPositive");
    const theirs = await h.call(parentRatingCall, "owner", { profileId: fx.ids.strangerProfileId, packageName: pkg, ...stars });
    expect(theirs.status).toBe(404);
    expect((await h.call(appDetail, "owner", { ...kidOf, profile_id: fx.ids.strangerProfileId })).status).toBe(404);
    expect((await h.call(appDetail, "owner", { ...kidOf, serialNumber: fx.ids.strangerSerial })).status).toBe(404);
    const stored = await fx.t.db.selectFrom("parent_ratings").select("id").where("profile_id", "=", fx.ids.strangerProfileId).execute();
    expect(stored).toEqual([]);
    // The recommendation alone: on the parent's own rating; a parent who has not rated the app has nothing to change.
    expect((await h.call(parentRecommended, "owner", { packageName: pkg, isRecommend: false })).status).toBe(200);
    const after = await fx.t.db
      .selectFrom("parent_ratings")
      .select("is_recommend")
      .where("parent_id", "=", fx.parents.owner.id)
      .where("package_name", "=", pkg)
      .executeTakeFirstOrThrow();
    expect(after.is_recommend).toBe(0);
    expect((await h.call(parentRecommended, "operator", { packageName: pkg, isRecommend: true })).status).toBe(404);
  });

  it("the play store: the phone's installed apps, a search's matches (the page's storePage); another family's kid is a 404", async () => {
    const { packageName } = await installedStoreApp(fx);
    const kidOf = { profileId: fx.ids.profileId, serialNumber: fx.ids.serialNumber };
    const installed = await h.call(playstore, "owner", kidOf);
    expect(installed.status).toBe(200);
    expect(installed.body).toMatchObject({ tab: "installed", label: null, deviceDetail: { _id: fx.ids.deviceId, profile_name: "Mia" } });
    expect((installed.body.data as { appId: string; isAppInstalled: boolean }[]).find((a) => a.appId === packageName)).toMatchObject({
      isAppInstalled: true,
    });
    const found = await h.call(playstoreSearch, "owner", { ...kidOf, playstoreText: "Matrix Store" });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ tab: "search", label: "Show result for 'Matrix Store'" });
    expect((found.body.data as { appId: string }[]).map((a) => a.appId)).toContain(packageName);
    const filtered = await h.call(playstore, "owner", { ...kidOf, playstoreText: "Matrix Store" });
    expect(filtered.body.tab).toBe("search");
    expect((await h.call(playstoreSearch, "owner", { ...kidOf, ageFilter: "AGE_RANGE9" })).status).toBe(400);
    const theirs = await h.call(playstore, "owner", { profileId: fx.ids.strangerProfileId, serialNumber: fx.ids.strangerSerial });
    expect(theirs.status).toBe(404);
    expect((await h.call(playstoreSearch, "stranger", kidOf)).status).toBe(404);
  });

  it("the device profile application list: the Apps page's list and search; another family's kid is a 404", async () => {
    const { packageName: own } = await installedApp(fx);
    const { packageName: fromStore } = await installedStoreApp(fx);
    const kidOf = { profile_id: fx.ids.profileId, serialNumber: fx.ids.serialNumber };
    const all = await h.call(profileApplicationList, "owner", kidOf);
    expect(all.status).toBe(200);
    const names = (all.body.data as { package_name: string; _id: string }[]).map((a) => a.package_name);
    expect(names).toEqual(expect.arrayContaining([own, fromStore]));
    const forced = await h.call(profileApplicationList, "owner", { ...kidOf, install_type: "FORCE_INSTALLED", q: fromStore! });
    expect((forced.body.data as { package_name: string }[]).map((a) => a.package_name)).toEqual([fromStore]);
    expect((await h.call(profileApplicationList, "owner", { ...kidOf, install_type: "ALL" })).status).toBe(400);
    expect((await h.call(profileApplicationList, "owner", { ...kidOf, profile_id: fx.ids.strangerProfileId })).status).toBe(404);
    expect((await h.call(profileApplicationList, "stranger", kidOf)).status).toBe(404);
  });

  it("send-forget-password-link: the page's one answer for any address, a link mailed to an account's", async () => {
    const known = await h.call(sendForgetPasswordLink, null, { email: fx.parents.owner.email });
    const unknown = await h.call(sendForgetPasswordLink, null, { email: "nobody@nowhere.example" });
    expect(known).toEqual(unknown);
    expect(known.status).toBe(200);
    expect(known.body.respones_msg).toContain("we've sent a link to reset your password");
    await expect
      .poll(async () =>
        (await fx.t.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", fx.parents.owner.email).execute()).some((m) =>
          // The fixture's parents have no password yet: the page's link to set one.
          m.text_body.includes("/password/set?"),
        ),
      )
      .toBe(true);
    expect((await h.call(sendForgetPasswordLink, null, { email: "not-an-email" })).status).toBe(400);
  });

  it("reset-password: the link's new password (the page's rules), the link spent, the old sessions ended", async () => {
    const who = fx.parents.rejected;
    const oldHash = await hashPassword("old-Reset-Pass-2026");
    await fx.t.db.updateTable("parents").set({ password_hash: oldHash }).where("id", "=", who.id).execute();
    const session = await h.token("rejected");
    const link = newLink(h.services.env.SESSION_SECRET, { parentId: who.id, purpose: "reset-password", passwordHash: oldHash });
    const fields = { iv: link.iv, encrypted_data: link.encryptedData };
    const mismatch = await h.call(resetPassword, null, { ...fields, password: "New-Reset-Pass-2026", confirm_password: "other" });
    expect(mismatch).toEqual({ status: 400, body: { respones_msg: "Password and confirm password do not match." } });
    const done = await h.call(resetPassword, null, { ...fields, password: "New-Reset-Pass-2026", confirm_password: "New-Reset-Pass-2026" });
    expect(done).toEqual({ status: 200, body: { respones_msg: "Your password has been changed. Please sign in with your new password." } });
    expect((await h.call(kidsList, session, {})).status).toBe(401);
    const again = await h.call(resetPassword, null, {
      ...fields,
      password: "Other-Reset-Pass-2026",
      confirm_password: "Other-Reset-Pass-2026",
    });
    expect(again.status).toBe(400);
    const forged = await h.call(resetPassword, null, {
      iv: "x",
      encrypted_data: "y",
      password: "Other-Reset-Pass-2026",
      confirm_password: "Other-Reset-Pass-2026",
    });
    expect(forged.status).toBe(400);
    expect((await h.call(login, null, { email: who.email, password: "New-Reset-Pass-2026" })).status).toBe(200);
  });

  it("verify/email: the registration link verifies the email and signs in (once); a forged link is a 400", async () => {
    const who = fx.parents.revoked;
    await fx.t.db.updateTable("parents").set({ email_verified_at: null }).where("id", "=", who.id).execute();
    const link = newLink(h.services.env.SESSION_SECRET, { parentId: who.id, purpose: "verify-email", passwordHash: null });
    const done = await h.call(verifyEmail, null, { iv: link.iv, encryptedData: link.encryptedData });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ respones_msg: "Signed in.", enable_two_step_email_verification: false });
    expect((await h.call(kidsList, (done.body.data as { token: string }).token, {})).status).toBe(200);
    const row = await fx.t.db.selectFrom("parents").select("email_verified_at").where("id", "=", who.id).executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
    expect((await h.call(verifyEmail, null, { iv: link.iv, encryptedData: link.encryptedData })).status).toBe(400);
    expect((await h.call(verifyEmail, null, { iv: "x", encryptedData: "y" })).status).toBe(400);
  });
});
