import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppleStrategy, IdTokenError, type ProviderEnv } from "./oauth.server";

// Apple's return that carries only a code (no id_token): the strategy redeems it at the token endpoint with the
// client secret, then verifies the id_token it gets (signature, issuer, audience, nonce). Against a real local
// OIDC provider.
describe("Apple sign-in: code-only return", () => {
  const provider = new OAuth2Server();
  let e: ProviderEnv;
  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    e = {
      GOOGLE_CLIENT_ID: "",
      GOOGLE_CLIENT_SECRET: "",
      GOOGLE_ISSUER: "",
      APPLE_CLIENT_ID: "portal.apple.client",
      APPLE_ISSUER: provider.issuer.url!,
      APPLE_HIDDEN_HOST: "api.kids-portal.example",
      APPLE_CLIENT_SECRET: "client-secret-jwt",
      PUBLIC_URL: "http://portal.test",
      PORT: 3000,
      NODE_ENV: "test",
      SECURE_COOKIES: false,
      SESSION_SECRET: "s".repeat(40),
    };
  });
  afterAll(async () => {
    await provider.stop();
  });

  async function firstLeg() {
    const thrown = await new AppleStrategy(e).authenticate(new Request("http://portal.test/users/auth/apple")).catch((r: unknown) => r);
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    const location = new URL(res.headers.get("Location")!);
    expect(location.searchParams.get("response_mode")).toBe("form_post");
    const cookie = res.headers.get("Set-Cookie")!.split(";")[0];
    return { state: location.searchParams.get("state")!, nonce: location.searchParams.get("nonce")!, cookie };
  }

  const callback = (cookie: string, fields: Record<string, string>) =>
    new Request("http://portal.test/users/apple-callback", {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Cookie: cookie },
    });

  it("redeems the code with the client secret and returns the verified identity", async () => {
    const { state, nonce, cookie } = await firstLeg();
    let sentSecret: unknown;
    // The token endpoint signs an access token and an id_token: shape both as Apple would.
    const shape = (token: { payload: Record<string, unknown> }, req: { body: Record<string, unknown> }) => {
      sentSecret = req.body.client_secret;
      Object.assign(token.payload, {
        aud: e.APPLE_CLIENT_ID,
        nonce,
        sub: "apple-user-1",
        email: "kid.parent@example.com",
        email_verified: "true",
      });
    };
    provider.service.on("beforeTokenSigning", shape);
    const who = await new AppleStrategy(e)
      .authenticate(callback(cookie, { code: "one-time-code", state }))
      .finally(() => provider.service.off("beforeTokenSigning", shape));
    expect(sentSecret).toBe("client-secret-jwt");
    expect(who).toMatchObject({ provider: "apple", sub: "apple-user-1", email: "kid.parent@example.com" });
  });

  it("refuses a redeemed token whose nonce is not ours, and a state that does not match", async () => {
    const { state, cookie } = await firstLeg();
    const shape = (token: { payload: Record<string, unknown> }) => {
      Object.assign(token.payload, { aud: e.APPLE_CLIENT_ID, nonce: "someone-elses", sub: "x", email: "x@example.com" });
    };
    provider.service.on("beforeTokenSigning", shape);
    await expect(new AppleStrategy(e).authenticate(callback(cookie, { code: "c", state }))).rejects.toThrow(/nonce/);
    provider.service.off("beforeTokenSigning", shape);
    await expect(new AppleStrategy(e).authenticate(callback(cookie, { code: "c", state: "forged" }))).rejects.toBeInstanceOf(IdTokenError);
  });
});
