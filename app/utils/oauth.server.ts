import { randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import { CodeChallengeMethod, OAuth2Strategy } from "remix-auth-oauth2";
import { publicOrigin, type Env } from "#core/env.server";

/** Who a provider says signed in. Only a verified email is used to find the parent. */
export interface ProviderIdentity {
  provider: "google" | "apple";
  sub: string;
  email: string | null;
  emailVerified: boolean;
}

export type ProviderEnv = Pick<
  Env,
  | "GOOGLE_CLIENT_ID"
  | "GOOGLE_CLIENT_SECRET"
  | "GOOGLE_ISSUER"
  | "APPLE_CLIENT_ID"
  | "APPLE_ISSUER"
  | "APPLE_HIDDEN_HOST"
  | "APPLE_CLIENT_SECRET"
  | "PUBLIC_URL"
  | "PORT"
  | "NODE_ENV"
  | "SECURE_COOKIES"
  | "SESSION_SECRET"
>;

// ---------- which buttons show ----------

export function googleEnabled(e: ProviderEnv): boolean {
  return Boolean(e.GOOGLE_CLIENT_ID);
}

/** Apple is hidden when not configured and on the one production API host where it must not appear. */
export function appleEnabled(e: ProviderEnv, request: Request): boolean {
  if (!e.APPLE_CLIENT_ID) return false;
  const url = new URL(request.url);
  const host = (request.headers.get("X-Forwarded-Host") ?? url.host).toLowerCase();
  const hidden = e.APPLE_HIDDEN_HOST.toLowerCase();
  return host !== hidden && host.split(":")[0] !== hidden;
}

// ---------- OIDC discovery and id_token checks ----------

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

const discoveries = new Map<string, Promise<Discovery>>();
export function discover(issuer: string): Promise<Discovery> {
  const key = issuer.replace(/\/+$/, "");
  let p = discoveries.get(key);
  if (!p) {
    p = (async () => {
      const res = await fetch(`${key}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`OIDC discovery failed for ${key}: ${res.status}`);
      const doc = (await res.json()) as Discovery;
      if (!doc.authorization_endpoint || !doc.token_endpoint || !doc.jwks_uri) throw new Error(`OIDC discovery for ${key} is incomplete`);
      return doc;
    })();
    p.catch(() => discoveries.delete(key));
    discoveries.set(key, p);
  }
  return p;
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keySet(jwksUri: string) {
  let ks = keySets.get(jwksUri);
  if (!ks) {
    ks = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000, cooldownDuration: 30_000 });
    keySets.set(jwksUri, ks);
  }
  return ks;
}

export class IdTokenError extends Error {}

/**
 * Verifies an id_token against the provider's published keys: signature, issuer, audience, expiry (and
 * issued-at), and the nonce when one was sent. Any failure throws IdTokenError.
 */
export async function verifyIdToken(
  idToken: string,
  opts: { issuer: string; audience: string; nonce?: string | null; jwksUri?: string },
): Promise<JWTPayload> {
  try {
    const jwksUri = opts.jwksUri ?? (await discover(opts.issuer)).jwks_uri;
    const { payload } = await jwtVerify(idToken, keySet(jwksUri), {
      issuer: [opts.issuer, opts.issuer.replace(/\/+$/, "")],
      audience: opts.audience,
      algorithms: ["RS256", "ES256"],
      requiredClaims: ["exp", "iat", "sub"],
      clockTolerance: 5,
    });
    if (opts.nonce !== undefined && (!opts.nonce || payload.nonce !== opts.nonce)) throw new IdTokenError("nonce mismatch");
    return payload;
  } catch (err) {
    if (err instanceof IdTokenError) throw err;
    throw new IdTokenError(err instanceof Error ? err.message : String(err));
  }
}

function identityFrom(provider: ProviderIdentity["provider"], payload: JWTPayload): ProviderIdentity {
  const email = typeof payload.email === "string" ? payload.email.trim().toLowerCase() : null;
  // Apple sends email_verified as the string "true"; Google as a boolean.
  const verified = payload.email_verified === true || payload.email_verified === "true";
  return { provider, sub: String(payload.sub), email, emailVerified: verified };
}

function secure(e: ProviderEnv) {
  return e.SECURE_COOKIES || e.NODE_ENV === "production";
}

/** Callbacks registered with a provider: PUBLIC_URL only, never the request's Host header. */
function origin(e: ProviderEnv) {
  return publicOrigin(e);
}

// ---------- Google: remix-auth-oauth2 (authorization code + PKCE), then the id_token is verified ----------

export const GOOGLE_CALLBACK = "/users/auth/google/callback";

export async function googleAuthenticator(e: ProviderEnv): Promise<Authenticator<ProviderIdentity>> {
  const doc = await discover(e.GOOGLE_ISSUER);
  const strategy = new OAuth2Strategy<ProviderIdentity>(
    {
      cookie: {
        name: "kp_oauth_google",
        httpOnly: true,
        sameSite: "Lax",
        ...(secure(e) ? { secure: true as const } : {}),
        path: "/users/auth/google",
        maxAge: 600,
      },
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET || null,
      authorizationEndpoint: doc.authorization_endpoint,
      tokenEndpoint: doc.token_endpoint,
      redirectURI: `${origin(e)}${GOOGLE_CALLBACK}`,
      scopes: ["openid", "email", "profile"],
      codeChallengeMethod: CodeChallengeMethod.S256,
    },
    async ({ tokens }) => {
      const payload = await verifyIdToken(tokens.idToken(), { issuer: doc.issuer, audience: e.GOOGLE_CLIENT_ID, jwksUri: doc.jwks_uri });
      return identityFrom("google", payload);
    },
  );
  return new Authenticator<ProviderIdentity>().use(strategy, "google");
}

// ---------- Apple: authorize with response_mode=form_post; the POSTed id_token is verified ----------

export const APPLE_CALLBACK = "/users/apple-callback";

interface AppleState {
  state: string;
  nonce: string;
}

let appleCookieCache: { key: string; cookie: ReturnType<typeof createCookie> } | undefined;
/** Apple posts back cross-site (form_post), so in production this cookie must be SameSite=None; Secure. */
export function appleCookie(e: ProviderEnv) {
  const key = `${e.SESSION_SECRET}:${secure(e)}`;
  if (appleCookieCache?.key !== key) {
    appleCookieCache = {
      key,
      cookie: createCookie("kp_oauth_apple", {
        httpOnly: true,
        path: "/",
        maxAge: 600,
        secure: secure(e),
        sameSite: secure(e) ? "none" : "lax",
        secrets: [e.SESSION_SECRET],
      }),
    };
  }
  return appleCookieCache.cookie;
}

export class AppleStrategy extends Strategy<ProviderIdentity, { payload: JWTPayload }> {
  name = "apple";
  constructor(
    private e: ProviderEnv,
    verify: Strategy.VerifyFunction<ProviderIdentity, { payload: JWTPayload }> = async ({ payload }) => identityFrom("apple", payload),
  ) {
    super(verify);
  }

  /** First leg (no code, no id_token): redirect to Apple. Return leg: verify and return the identity. */
  async authenticate(request: Request): Promise<ProviderIdentity> {
    const doc = await discover(this.e.APPLE_ISSUER);
    let params: URLSearchParams;
    if (request.method === "POST") {
      const form = await request.formData();
      params = new URLSearchParams();
      for (const [k, v] of form) if (typeof v === "string") params.set(k, v);
    } else {
      params = new URL(request.url).searchParams;
    }
    const code = params.get("code");
    let idToken = params.get("id_token");
    if (!code && !idToken) {
      if (params.get("error")) throw new IdTokenError(`Apple returned ${params.get("error")}`);
      const st: AppleState = { state: randomBytes(16).toString("base64url"), nonce: randomBytes(16).toString("base64url") };
      const url = new URL(doc.authorization_endpoint);
      url.searchParams.set("client_id", this.e.APPLE_CLIENT_ID);
      url.searchParams.set("redirect_uri", `${origin(this.e)}${APPLE_CALLBACK}`);
      url.searchParams.set("response_type", "code id_token");
      url.searchParams.set("response_mode", "form_post");
      url.searchParams.set("scope", "name email");
      url.searchParams.set("state", st.state);
      url.searchParams.set("nonce", st.nonce);
      throw redirect(url.toString(), { headers: { "Set-Cookie": await appleCookie(this.e).serialize(st) } });
    }
    const saved = (await appleCookie(this.e).parse(request.headers.get("Cookie"))) as AppleState | null;
    if (!saved?.state || !saved.nonce) throw new IdTokenError("missing Apple sign-in state (cookie)");
    if (params.get("state") !== saved.state) throw new IdTokenError("state mismatch");
    if (!idToken && code) idToken = await this.exchange(doc, code);
    if (!idToken) throw new IdTokenError("no id_token");
    const payload = await verifyIdToken(idToken, {
      issuer: doc.issuer,
      audience: this.e.APPLE_CLIENT_ID,
      nonce: saved.nonce,
      jwksUri: doc.jwks_uri,
    });
    return this.verify({ payload });
  }

  /** Apple returned only a code: redeem it at the token endpoint for an id_token. */
  private async exchange(doc: Discovery, code: string): Promise<string | null> {
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      client_id: this.e.APPLE_CLIENT_ID,
      redirect_uri: `${origin(this.e)}${APPLE_CALLBACK}`,
    });
    if (this.e.APPLE_CLIENT_SECRET) body.set("client_secret", this.e.APPLE_CLIENT_SECRET);
    const res = await fetch(doc.token_endpoint, { method: "POST", body, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new IdTokenError(`Apple token endpoint: ${res.status}`);
    const json = (await res.json()) as { id_token?: string };
    return json.id_token ?? null;
  }
}

export function appleAuthenticator(e: ProviderEnv): Authenticator<ProviderIdentity> {
  return new Authenticator<ProviderIdentity>().use(new AppleStrategy(e), "apple");
}

export async function clearAppleCookie(e: ProviderEnv): Promise<string> {
  return appleCookie(e).serialize("", { maxAge: 0 });
}
