import { extendZodWithOpenApi, OpenApiGeneratorV31, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Adds .openapi() to zod's prototypes (the registry names its components with it); schemas keep parsing as before.
extendZodWithOpenApi(z);
import { API_CALLS } from "./calls";
import type { ApiCall } from "./define";

export const API_VERSION = "1.0.0";

/** The error envelope of every failed call (spec 1 §7: respones_msg, sometimes is_logout). */
const ErrorEnvelope = z.object({
  respones_msg: z.string().describe("What went wrong, in words a person can act on."),
  is_logout: z.literal(1).optional().describe("The token is no good (missing, unknown, expired or revoked): sign in again."),
});

const COMMON_ERRORS: Record<number, string> = {
  400: "Malformed JSON, a wrong type, an unknown field or a value out of range.",
  401: "No token, or an unknown, expired or revoked one (is_logout: 1).",
  403: "A read-scoped token on a call that changes something, or an operators-only call.",
  404: "Not this parent's (another family's ids reveal nothing), or no such thing.",
  413: "The body is over 64 KB.",
  415: "The body is not JSON.",
  429: "Over the token's calls a minute, or the sign-in limits.",
  500: "Something went wrong on the server.",
  503: "The database is briefly unavailable.",
};

/** The operation id of a call: its method and path in camel case (GET /device/kids-list → getDeviceKidsList). */
export function operationId(call: Pick<ApiCall, "method" | "path">): string {
  const words = call.path.split(/[/\-_]+/).filter(Boolean);
  return call.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** The OpenAPI 3.1 document of /api/v1, generated from the very zod schemas the router parses with. */
export function openApiDocument() {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A session token (POST /users/login) or a personal access token (kp_…, made on the parent profile).",
  });
  const errorRef = registry.register("ErrorEnvelope", ErrorEnvelope);
  for (const call of API_CALLS) {
    const reply = z.object({ respones_msg: z.string() }).merge(call.reply);
    const statuses: Record<string, { description: string; content: { "application/json": { schema: z.ZodTypeAny } } }> = {
      "200": { description: "Done", content: { "application/json": { schema: reply } } },
    };
    const errors: Record<number, string> = { ...COMMON_ERRORS, ...(call.errors as Record<number, string> | undefined) };
    if (call.auth === "none") delete errors[403];
    for (const [code, description] of Object.entries(errors))
      statuses[code] = { description, content: { "application/json": { schema: errorRef } } };
    const description = [
      call.note,
      call.changes ? "Changes something: refused (403) to read-scoped tokens." : "A read: any token may make it.",
      call.auth === "operator" ? "Operators only." : null,
    ]
      .filter(Boolean)
      .join("\n\n");
    registry.registerPath({
      method: call.method,
      path: call.path,
      operationId: operationId(call),
      tags: [call.tag],
      summary: call.summary,
      description,
      security: call.auth === "none" ? [] : [{ [bearer.name]: [] }],
      request:
        call.method === "get"
          ? { query: call.input as z.AnyZodObject, headers: call.headers }
          : { headers: call.headers, body: { required: true, content: { "application/json": { schema: call.input } } } },
      responses: statuses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Kids Portal API",
      version: API_VERSION,
      description:
        "Every call of the product's pages, as JSON (docs/api.md). Paths are the spec's (§7 of both documents). Every reply carries respones_msg; an error also is_logout: 1 when the token is no good.",
    },
    servers: [{ url: "/api/v1" }],
  });
}
