import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokenHash, createApiToken } from "#db/queries/api-tokens";
import { createAuthzFixture, type Fixture } from "../authz.testing";
import { action, loader } from "./_app.api-tokens";

let fx: Fixture;
beforeAll(async () => {
  fx = await createAuthzFixture();
});
afterAll(async () => fx?.close());

const post = (actor: "owner" | "stranger", form: Record<string, string>) =>
  action({ request: fx.request(actor, "POST", "/api-tokens", form), context: fx.context(), params: {} }) as Promise<Response>;

describe("/api-tokens", () => {
  it("makes a token shown once and stores only its hash; the list shows name, scope, expiry and last use", async () => {
    const res = await post("owner", { intent: "create", name: "Home dashboard", scope: "read", days: "30" });
    const body = (await res.json()) as { created: { token: string; name: string } };
    expect(body.created.token).toMatch(/^kp_[A-Za-z0-9_-]{43}$/);
    const row = await fx.t.db.selectFrom("api_tokens").selectAll().where("parent_id", "=", fx.parents.owner.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(apiTokenHash(body.created.token));
    expect(JSON.stringify(row)).not.toContain(body.created.token);
    const page = (await (
      (await loader({ request: fx.request("owner", "GET", "/api-tokens"), context: fx.context(), params: {} })) as Response
    ).json()) as { tokens: { name: string; scope: string; lastUsedAt: string | null; state: string }[] };
    expect(page.tokens).toMatchObject([{ name: "Home dashboard", scope: "read", lastUsedAt: null, state: "live" }]);
    expect(JSON.stringify(page)).not.toContain(body.created.token);
  });

  it("refuses a nameless token or an unknown scope or expiry, keeping what was typed", async () => {
    const res = await post("owner", { intent: "create", name: " ", scope: "admin", days: "9999" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, string[]>; values: Record<string, string> };
    expect(body.errors.name).toEqual(["Please give the token a name."]);
    expect(body.errors.scope).toEqual(["Please choose what the token may do."]);
    expect(body.errors.days).toEqual(["Please choose when the token expires."]);
    expect(body.values.scope).toBe("admin");
  });

  it("revokes the parent's own token, never another parent's", async () => {
    const mine = await createApiToken(fx.t.db, fx.parents.owner.id, {
      name: "ci",
      scope: "control",
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const strangers = await post("stranger", { intent: "revoke", id: mine.row.id });
    expect(strangers.status).toBe(302);
    expect(
      (await fx.t.db.selectFrom("api_tokens").select("revoked_at").where("id", "=", mine.row.id).executeTakeFirstOrThrow()).revoked_at,
    ).toBeNull();
    await post("owner", { intent: "revoke", id: mine.row.id });
    expect(
      (await fx.t.db.selectFrom("api_tokens").select("revoked_at").where("id", "=", mine.row.id).executeTakeFirstOrThrow()).revoked_at,
    ).not.toBeNull();
  });
});
