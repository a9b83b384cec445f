/**
 * The local peers of the account journeys: a real SMTP server (smtp-server) and a real OIDC provider
 * (oauth2-mock-server) that the test worker starts on ports derived from E2E_PORT, and the environment
 * that points the e2e server at them. Kept free of heavy imports: e2e/server.ts imports it.
 */
export function accountPeerPorts(appPort: number) {
  return { smtp: appPort + 20_000, oidc: appPort + 21_000 };
}

export const E2E_GOOGLE_CLIENT_ID = "e2e-google-client";
export const E2E_APPLE_CLIENT_ID = "e2e.apple.client";
export const E2E_SHOP_URL = "https://shop.e2e.example/";

export function accountPeerEnv(appPort: number): Record<string, string> {
  const { smtp, oidc } = accountPeerPorts(appPort);
  return {
    SMTP_URL: `smtp://127.0.0.1:${smtp}`,
    GOOGLE_CLIENT_ID: E2E_GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: "e2e-google-secret",
    GOOGLE_ISSUER: `http://127.0.0.1:${oidc}`,
    APPLE_CLIENT_ID: E2E_APPLE_CLIENT_ID,
    APPLE_ISSUER: `http://127.0.0.1:${oidc}`,
    SHOP_URL: E2E_SHOP_URL,
    // Every journey signs in from 127.0.0.1; the per-IP limit is proven by unit tests at its real value (10).
    RATE_LIMIT_IP_PER_MINUTE: "1000",
  };
}
