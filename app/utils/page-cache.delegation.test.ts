import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../server/web.testing";
import { answerDelegation, createDelegation, revokeDelegation } from "#db/queries/delegations";
import { createParent, findParentByEmail } from "#db/queries/parents";
import { cachedGet } from "./page-cache.testing";

// Issue 18: revoking ends a delegate's access at once, also for pages the page cache already holds for them.
// The real server (SQLite, demo family) through the page cache (needs `remix build`).
let h: Awaited<ReturnType<typeof startTestServer>>;

let started: (typeof h)["started"];
let base: string;

beforeAll(async () => {
  h = await startTestServer("delegation-cache");
  ({ started, base } = h);
});
afterAll(async () => {
  await started?.close();
});

describe("delegate pages in the page cache", () => {
  it("a revoked delegate's cached dashboard is refused on the very next request (document and data)", async () => {
    const db = started.services.db;
    const owner = (await findParentByEmail(db, "demo@kids-portal.test"))!;
    const mia = await db
      .selectFrom("kid_profiles")
      .select("id")
      .where("parent_id", "=", owner.id)
      .where("name", "=", "Mia")
      .executeTakeFirstOrThrow();
    const helper = await createParent(db, { email: "helper@kids-portal.test", name: "Helper", passwordHash: null, emailVerified: true });
    const created = await createDelegation(db, owner, { email: helper.email, name: "Helper", allowedKids: [mia.id], accessLevel: "full" });
    if (!created.ok) throw new Error(created.message);
    expect((await answerDelegation(db, helper, created.id, "Accepted")).ok).toBe(true);
    const { cookie } = await h.signIn(helper);
    const get = async (p: string) => {
      const r = await cachedGet(base, p, { Cookie: cookie });
      return { status: r.res.status, cache: r.cache };
    };
    const page = `/kids-device?profileId=${mia.id}`;
    const data = `/kids-device.data?profileId=${mia.id}`;
    for (const url of [page, data]) {
      expect(await get(url)).toMatchObject({ status: 200 });
      expect(await get(url)).toEqual({ status: 200, cache: "hit" });
    }

    expect((await revokeDelegation(db, owner.id, created.id)).ok).toBe(true);
    expect((await get(page)).status).toBe(404);
    expect((await get(data)).status).not.toBe(200);
    // The owner still has the page.
    const { cookie: ownerCookie } = await h.signIn(owner);
    expect((await fetch(`${base}${page}`, { headers: { Cookie: ownerCookie } })).status).toBe(200);
  });
});
