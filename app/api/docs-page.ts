/**
 * GET /api/docs: the API's reference, rendered on the server from the OpenAPI document (no script, nothing from a
 * CDN): each call's method and path, what it does, its parameters or body, its reply and its errors.
 */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  description?: string;
  default?: unknown;
  nullable?: boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: Schema | boolean;
  $ref?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
}
interface Operation {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const esc = (s: unknown) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A schema as a short type: string, number, "a" | "b", array of {…}, … */
function typeOf(s: Schema | undefined): string {
  if (!s) return "any";
  if (s.$ref) return s.$ref.split("/").pop()!;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.anyOf ?? s.oneOf) return (s.anyOf ?? s.oneOf)!.map(typeOf).join(" | ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
  if (t === "array") return `array of ${typeOf(s.items)}`;
  if (t === "object" && !s.properties) return "object";
  return t;
}

/** The fields of an object schema as rows of a table, nested objects indented by their dotted names. */
function fieldRows(s: Schema | undefined, prefix = ""): string {
  if (!s) return "";
  const obj = s.type === "array" ? s.items : s;
  if (!obj?.properties) return "";
  return Object.entries(obj.properties)
    .map(([name, f]) => {
      const full = `${prefix}${name}`;
      const notes = [f.description, f.default !== undefined ? `default ${JSON.stringify(f.default)}` : null].filter(Boolean).join("; ");
      const req = obj.required?.includes(name) ? "yes" : "no";
      const nested = f.properties || f.items?.properties ? fieldRows(f, `${full}${f.type === "array" ? "[]" : ""}.`) : "";
      return `<tr><td><code>${esc(full)}</code></td><td>${esc(typeOf(f))}</td><td>${req}</td><td>${esc(notes)}</td></tr>${nested}`;
    })
    .join("");
}

function table(caption: string, rows: string): string {
  if (!rows) return `<p class="muted">${esc(caption)}: none.</p>`;
  return `<table><caption>${esc(caption)}</caption><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Notes</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function docsPage(doc: OpenApiDoc): string {
  const ops: { path: string; method: string; op: Operation }[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) ops.push({ path, method, op });
  const tags = [...new Set(ops.map((o) => o.op.tags?.[0] ?? "Other"))];
  const nav = tags
    .map(
      (t) =>
        `<li><a href="#${esc(slug(t))}">${esc(t)}</a><ul>${ops
          .filter((o) => (o.op.tags?.[0] ?? "Other") === t)
          .map((o) => `<li><a href="#${esc(o.op.operationId)}">${o.method.toUpperCase()} ${esc(o.path)}</a></li>`)
          .join("")}</ul></li>`,
    )
    .join("");
  const sections = tags
    .map((t) => {
      const body = ops
        .filter((o) => (o.op.tags?.[0] ?? "Other") === t)
        .map(({ path, method, op }) => {
          const params = (op.parameters ?? [])
            .filter((p) => p.in === "query")
            .map(
              (p) =>
                `<tr><td><code>${esc(p.name)}</code></td><td>${esc(typeOf(p.schema))}</td><td>${p.required ? "yes" : "no"}</td><td>${esc([p.schema.description, p.schema.default !== undefined ? `default ${JSON.stringify(p.schema.default)}` : null].filter(Boolean).join("; "))}</td></tr>`,
            )
            .join("");
          const headers = (op.parameters ?? [])
            .filter((p) => p.in === "header")
            .map((p) => `<code>${esc(p.name)}</code>`)
            .join(", ");
          const reqBody = op.requestBody?.content["application/json"]?.schema;
          const ok = op.responses["200"]?.content?.["application/json"]?.schema;
          const errors = Object.entries(op.responses)
            .filter(([code]) => code !== "200")
            .map(([code, r]) => `<li><strong>${esc(code)}</strong> ${esc(r.description)}</li>`)
            .join("");
          return `<section class="op" id="${esc(op.operationId)}" aria-labelledby="${esc(op.operationId)}-h">
<h3 id="${esc(op.operationId)}-h"><span class="method method-${esc(method)}">${method.toUpperCase()}</span> <code>/api/v1${esc(path)}</code></h3>
<p><strong>${esc(op.summary ?? "")}</strong></p>
${(op.description ?? "")
  .split("\n\n")
  .map((p) => `<p>${esc(p)}</p>`)
  .join("")}
<p class="muted">${op.security?.length ? "Needs <code>Authorization: Bearer &lt;token&gt;</code>." : "No token needed."}${headers ? ` Header: ${headers}.` : ""}</p>
${method === "get" ? table("Query parameters", params) : table("JSON body", fieldRows(reqBody))}
${table("Reply (200)", fieldRows(ok))}
<details><summary>Errors</summary><p>Every error is <code>{ "respones_msg": "…" }</code>, with <code>"is_logout": 1</code> when the token is no good.</p><ul>${errors}</ul></details>
</section>`;
        })
        .join("\n");
      return `<section aria-labelledby="${esc(slug(t))}"><h2 id="${esc(slug(t))}">${esc(t)}</h2>${body}</section>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Kids Portal</title>
<style>
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2937;background:#f8fafc}
header,main,nav{max-width:1000px;margin:0 auto;padding:0 1rem}
header{padding-top:1.5rem}
a{color:#1d4ed8}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}
.op{background:#fff;border:1px solid #d1d5db;border-radius:8px;padding:1rem;margin:1rem 0}
.method{display:inline-block;min-width:3.5rem;text-align:center;border-radius:4px;padding:0 .4rem;color:#fff;font-size:.85em}
.method-get{background:#1d4ed8}.method-post{background:#047857}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.92em}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid #e5e7eb;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f4f6}
.muted{color:#4b5563}
nav ul{padding-left:1.2rem}
</style></head>
<body>
<header><h1>${esc(doc.info.title)} <small class="muted">v${esc(doc.info.version)}</small></h1>
<p>${esc(doc.info.description ?? "")}</p>
<p>The machine-readable document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1). Personal access tokens are made on the <a href="/api-tokens">API tokens</a> page.</p></header>
<nav aria-label="Calls"><h2>Calls</h2><ul>${nav}</ul></nav>
<main>${sections}</main>
</body></html>`;
}

function slug(s: string): string {
  return `tag-${s.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}
