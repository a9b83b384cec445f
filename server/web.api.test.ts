import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "./web.testing";

// The open API as the web process mounts it (server/web.ts): needs `npx remix build` first.
let t: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  t = await startTestServer("api");
}, 120_000);
afterAll(async () => t?.started.close());

describe("/api/v1 and /api/docs in the web process", () => {
  it("serves the reference from the product (no script, nothing from another origin) and the OpenAPI document", async () => {
    const docs = await fetch(`${t.base}/api/docs`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain("<h1>Kids Portal API");
    expect(html).toContain("/api/v1/device/kids-list");
    expect(html).not.toMatch(/<script|https?:\/\/(?!localhost)[a-z]/i);
    const doc = (await (await fetch(`${t.base}/api/v1/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toBe("3.1.0");
  });

  it("takes a bearer call from any origin (no cookie is read), and answers a cookie alone 401", async () => {
    const { token, cookie } = await t.signIn("demo@kids-portal.test");
    const viaBearer = await fetch(`${t.base}/api/v1/users/update/reportFrequency`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Origin: "https://elsewhere.example" },
      body: JSON.stringify({ kidsReportType: "Weekly" }),
    });
    expect(viaBearer.status).toBe(200);
    const viaCookie = await fetch(`${t.base}/api/v1/users/detail`, { headers: { Cookie: cookie } });
    expect(viaCookie.status).toBe(401);
    expect(await viaCookie.json()).toEqual({ respones_msg: "Please sign in again.", is_logout: 1 });
  });
});
