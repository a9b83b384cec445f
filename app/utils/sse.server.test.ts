import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../server/web.testing";
import { hashPassword } from "#core/password.server";
import { answerDelegation, createDelegation } from "#db/queries/delegations";
import { createParent, findParentByEmail } from "#db/queries/parents";
import { hashToken } from "#db/queries/sessions";
import type { Parent } from "#db/schema";

// Issue 52, finding 4: an /events stream lives only as long as its session (and, for a delegate, their access): it
// ends at sign-out, password change, sign-out everywhere and revoked access. The real server (needs `remix build`).
let h: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  h = await startTestServer("sse-end");
});
afterAll(async () => {
  await h?.started.close();
});

interface Stream {
  status: number;
  /** Resolves when the server ended the stream; with the text it sent. */
  ended: Promise<string>;
  isEnded(): boolean;
  close(): void;
}

/** Opens GET /events with this cookie and waits for its first line (the stream is live). */
function openStream(cookie: string): Promise<Stream> {
  const port = new URL(h.base).port;
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/events", headers: { Cookie: cookie } }, (res) => {
      let text = "";
      let done = false;
      res.setEncoding("utf8");
      const ended = new Promise<string>((end) => {
        res.on("end", () => ((done = true), end(text)));
        res.on("close", () => ((done = true), end(text)));
      });
      res.once("data", (d: string) => {
        text += d;
        res.on("data", (more: string) => (text += more));
        resolve({ status: res.statusCode ?? 0, ended, isEnded: () => done, close: () => req.destroy() });
      });
    });
    req.on("error", (err) => (err.message === "socket hang up" ? undefined : reject(err)));
  });
}

/** The stream ends within a few seconds (it never would by itself: a heartbeat every 25 s keeps it open). */
async function endsSoon(s: Stream): Promise<void> {
  const timeout = new Promise<"open">((r) => setTimeout(() => r("open"), 5_000));
  expect(await Promise.race([s.ended.then(() => "ended" as const), timeout])).toBe("ended");
}

async function parentWithPassword(email: string, password: string): Promise<Parent> {
  return createParent(h.db, { email, name: email.split("@")[0]!, passwordHash: await hashPassword(password), emailVerified: true });
}

describe("/events streams end with their session or access", () => {
  it("sign-out ends that session's stream and no other; the browser's reconnect is refused", async () => {
    const p = await parentWithPassword("signout@sse.example", "first-password-1");
    const mine = await h.signIn(p);
    const other = await h.signIn(p);
    const a = await openStream(mine.cookie);
    const b = await openStream(other.cookie);
    expect([a.status, b.status]).toEqual([200, 200]);
    const res = await h.post("/logout", {}, mine.cookie);
    expect(res.status).toBe(302);
    await endsSoon(a);
    expect(b.isEnded()).toBe(false);
    const again = await fetch(`${h.base}/events`, { headers: { Cookie: mine.cookie } });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ respones_msg: "Please sign in again.", is_logout: 1 });
    b.close();
  });

  it("a session signed out from Account security ends its stream", async () => {
    const p = await parentWithPassword("one-session@sse.example", "first-password-1");
    const here = await h.signIn(p);
    const there = await h.signIn(p);
    const s = await openStream(there.cookie);
    const res = await h.post("/account", { intent: "revoke-session", sessionId: hashToken(there.token) }, here.cookie);
    expect(res.status).toBe(302);
    await endsSoon(s);
  });

  it("a password change ends every stream of the parent", async () => {
    const p = await parentWithPassword("password@sse.example", "first-password-1");
    const one = await h.signIn(p);
    const two = await h.signIn(p);
    const streams = [await openStream(one.cookie), await openStream(two.cookie)];
    const res = await h.post(
      "/change-password",
      { old_password: "first-password-1", new_password: "second-password-2", confirm_password: "second-password-2" },
      one.cookie,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
    for (const s of streams) await endsSoon(s);
  });

  it("sign out everywhere ends every stream of the parent, and only theirs", async () => {
    const p = await parentWithPassword("everywhere@sse.example", "first-password-1");
    const bystander = await parentWithPassword("bystander@sse.example", "first-password-1");
    const one = await h.signIn(p);
    const two = await h.signIn(p);
    const streams = [await openStream(one.cookie), await openStream(two.cookie)];
    const theirs = await openStream((await h.signIn(bystander)).cookie);
    const res = await h.post("/account", { intent: "sign-out-everywhere" }, one.cookie);
    expect(res.status).toBe(302);
    for (const s of streams) await endsSoon(s);
    expect(theirs.isEnded()).toBe(false);
    theirs.close();
  });

  it("revoked access ends the delegate's streams (after the refresh that reloads their page); a new stream is theirs again", async () => {
    const owner = (await findParentByEmail(h.db, "demo@kids-portal.test"))!;
    const mia = await h.db
      .selectFrom("kid_profiles")
      .select("id")
      .where("parent_id", "=", owner.id)
      .where("name", "=", "Mia")
      .executeTakeFirstOrThrow();
    const helper = await parentWithPassword("helper@sse.example", "first-password-1");
    const d = await createDelegation(h.db, owner, { email: helper.email, name: "Helper", allowedKids: [mia.id], accessLevel: "full" });
    if (!d.ok) throw new Error(d.message);
    expect((await answerDelegation(h.db, helper, d.id, "Accepted")).ok).toBe(true);
    const { cookie } = await h.signIn(helper);
    const s = await openStream(cookie);
    const res = await h.post("/parent-profile", { intent: "revoke", id: d.id }, (await h.signIn(owner)).cookie);
    expect(res.status).toBe(302);
    await endsSoon(s);
    expect(await s.ended).toContain(`event: refresh\ndata: ${JSON.stringify({ profileId: mia.id, reason: "access.revoked" })}`);
    const again = await openStream(cookie);
    expect(again.status).toBe(200);
    expect(again.isEnded()).toBe(false);
    again.close();
  });
});
