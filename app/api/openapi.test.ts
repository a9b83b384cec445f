import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS, { astToString } from "openapi-typescript";
import createClient from "openapi-fetch";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthzFixture, type Fixture } from "../authz.testing";
import type { Ids } from "../authz-probes.testing";
import { API_CALLS } from "./calls";
import { operationId } from "./openapi";
import { API_PROBES, startApiHarness, type ApiHarness } from "./probes.testing";
import { API_BASE } from "./router.server";

/**
 * The OpenAPI document is what the API does: a real OpenAPI 3.1 validator accepts it, types generated from it
 * (openapi-typescript) type-check a client that makes every call with its probe's input, and that client
 * (openapi-fetch) then makes every call against the router, each answer parsing with the reply schema of the document.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const GEN = path.join(ROOT, ".cache", `api-client-${process.pid}`);
let fx: Fixture;
let h: ApiHarness;
let doc: Record<string, unknown>;

beforeAll(async () => {
  fx = await createAuthzFixture();
  h = await startApiHarness(fx);
  doc = (await (await fetch(`${h.base}${API_BASE}/openapi.json`)).json()) as Record<string, unknown>;
});
afterAll(async () => {
  rmSync(GEN, { recursive: true, force: true });
  await h?.close();
  await fx?.close();
});

async function probeIds(call: (typeof API_CALLS)[number]): Promise<Ids> {
  const extra = (await API_PROBES[operationId(call)]!.prepare?.(fx)) ?? {};
  return { ...fx.ids, delegationId: fx.delegationIds.pending, cardId: "", ...extra } as Ids;
}

describe("the OpenAPI document (/api/v1/openapi.json)", () => {
  it("is a valid OpenAPI 3.1 document with every call at its path and method", async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    const paths = doc.paths as Record<string, Record<string, { operationId: string }>>;
    for (const call of API_CALLS) expect(paths[call.path]?.[call.method]?.operationId).toBe(operationId(call));
  });

  it("generates types that a client making every call type-checks against", async () => {
    const types = astToString(await openapiTS(doc as never));
    mkdirSync(GEN, { recursive: true });
    writeFileSync(path.join(GEN, "api.d.ts"), types);
    const lines = [
      'import createClient from "openapi-fetch";',
      'import type { paths } from "./api";',
      'const client = createClient<paths>({ baseUrl: "/api/v1" });',
      "export async function all() {",
    ];
    for (const call of API_CALLS) {
      const input = API_PROBES[operationId(call)]!.input(await probeIds(call));
      const empty = Object.keys(input).length === 0;
      const params =
        call.method === "get" ? (empty ? "{}" : `{ params: { query: ${JSON.stringify(input)} } }`) : `{ body: ${JSON.stringify(input)} }`;
      const headers = call.headers ? `, headers: { "x-api-key": "k" }` : "";
      const args = call.headers ? `{ ...${params}, params: { header: { "x-api-key": "k" } }${headers} }` : params;
      lines.push(
        `  { const r = await client.${call.method.toUpperCase()}(${JSON.stringify(call.path)}, ${args}); const m: string | undefined = r.data?.respones_msg ?? r.error?.respones_msg; void m; }`,
      );
    }
    lines.push("}");
    writeFileSync(path.join(GEN, "client.ts"), lines.join("\n"));
    const tsc = path.join(ROOT, "node_modules", ".bin", "tsc");
    const out = (() => {
      try {
        execFileSync(
          tsc,
          [
            "--noEmit",
            "--strict",
            "--skipLibCheck",
            "--target",
            "es2022",
            "--module",
            "esnext",
            "--moduleResolution",
            "bundler",
            path.join(GEN, "client.ts"),
          ],
          { cwd: ROOT, encoding: "utf8" },
        );
        return "";
      } catch (err) {
        return String((err as { stdout?: string }).stdout ?? err);
      }
    })();
    expect(out).toBe("");
  }, 120_000);

  it("calls every path with the generated client: each answer is its documented envelope", async () => {
    const failures: string[] = [];
    for (const call of API_CALLS) {
      const probe = API_PROBES[operationId(call)]!;
      const input = probe.input(await probeIds(call));
      const allowed = probe.allow.includes("owner") ? "owner" : probe.allow[0]!;
      const token = allowed === "none" ? null : allowed === "operator" ? await h.token("operator") : await h.token(allowed);
      const headers: Record<string, string> = { ...(probe.headers?.(h) ?? {}) };
      if (token) headers.Authorization = `Bearer ${token}`;
      const client = createClient<Record<string, never>>({ baseUrl: `${h.base}${API_BASE}` });
      const init = { headers, ...(call.method === "get" ? { params: { query: input } } : { body: input }) };
      const r =
        call.method === "get" ? await client.GET(call.path as never, init as never) : await client.POST(call.path as never, init as never);
      const status = r.response.status;
      const body = (r.data ?? r.error) as Record<string, unknown>;
      if (status === 200) {
        const parsed = z.object({ respones_msg: z.string() }).merge(call.reply).safeParse(body);
        if (!parsed.success) failures.push(`${call.method} ${call.path}: reply ${JSON.stringify(parsed.error.issues[0])}`);
      } else if (!(typeof body?.respones_msg === "string" && status < 500 && call.auth === "none")) {
        failures.push(`${call.method} ${call.path}: ${status} ${JSON.stringify(body)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
