import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compact, toEntry } from "./page-cache.server";
import { scriptsByHash } from "./security.server";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const NONCE = "n0nce+/AbC==";
const CSP = `default-src 'self'; script-src 'self' 'nonce-${NONCE}'; style-src 'self' 'unsafe-inline'; object-src 'none'`;

// A stored dashboard carries no nonce: the render's own inline scripts are authorised by hash instead (decision 004).
describe("a page stored for repeat views", () => {
  const page = (injected = "") =>
    `<!DOCTYPE html><html><head><link rel="modulepreload" href="/build/a.js"/></head><body><p>Mia ${injected}</p>` +
    `<script nonce="${NONCE}">window.__remixContext = {"a":"\\u003c/script>é"};</script>` +
    `<script nonce="${NONCE}" type="module" async="">import "/build/entry.js";</script>` +
    `<script nonce="${NONCE}" src="/build/x.js"></script></body></html>`;

  it("hashes exactly the scripts the render marked with its nonce, and keeps the page without the nonce", () => {
    const entry = toEntry(
      Buffer.from(page()),
      NONCE,
      200,
      new Headers({ "Content-Type": "text/html; charset=utf-8", "Content-Length": "1" }),
    )!;
    expect(entry.scriptHashes).toEqual([sha(`window.__remixContext = {"a":"\\u003c/script>é"};`), sha(`import "/build/entry.js";`)]);
    const stored = gunzipSync(entry.gz).toString("utf8");
    expect(stored).toBe(page().split(` nonce="${NONCE}"`).join(""));
    expect(stored).not.toContain(NONCE);
    expect(entry.headers).toEqual([["content-type", "text/html; charset=utf-8"]]);
  });

  it("holds its compressed body in memory of the body's own size (zlib's output is a view of a 16 KB chunk)", () => {
    const entry = toEntry(Buffer.from(page()), NONCE, 200, new Headers())!;
    expect(entry.gz.byteLength).toBeLessThan(16_384);
    expect(entry.gz.buffer.byteLength).toBe(entry.gz.byteLength);
    const big = Buffer.alloc(64);
    const view = big.subarray(8, 24).fill(7);
    const own = compact(view);
    expect(own.buffer.byteLength).toBe(16);
    expect([...own]).toEqual([...view]);
    expect(compact(own)).toBe(own);
  });

  it("never authorises a script injected into the page (it cannot carry the render's nonce)", () => {
    const injected = `<script>alert(1)</script><script nonce="guess">alert(2)</script>`;
    const entry = toEntry(Buffer.from(page(injected)), NONCE, 200, new Headers())!;
    expect(entry.scriptHashes).toHaveLength(2);
    expect(entry.scriptHashes).not.toContain(sha("alert(1)"));
    expect(entry.scriptHashes).not.toContain(sha("alert(2)"));
  });

  it("is not kept when the nonce appears anywhere but in nonce attributes, or the answer is not a plain 200", () => {
    expect(toEntry(Buffer.from(`${page()}<p>${NONCE}</p>`), NONCE, 200, new Headers())).toBeNull();
    expect(toEntry(Buffer.from(page()), NONCE, 404, new Headers())).toBeNull();
    expect(toEntry(Buffer.from(page()), NONCE, 200, new Headers({ "Set-Cookie": "a=b" }))).toBeNull();
    expect(toEntry(Buffer.from(page()), "", 200, new Headers())).toBeNull();
  });

  it("puts the hashes in the policy in place of the nonce, and changes nothing else", () => {
    const hashes = [sha("a"), sha("b")];
    expect(scriptsByHash(CSP, NONCE, hashes)).toBe(
      `default-src 'self'; script-src 'self' ${hashes.join(" ")}; style-src 'self' 'unsafe-inline'; object-src 'none'`,
    );
    expect(scriptsByHash(CSP, NONCE, [])).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'",
    );
    // Only a policy written for this response's nonce, and only hash sources.
    expect(scriptsByHash(CSP, "other", hashes)).toBeNull();
    expect(scriptsByHash(CSP, NONCE, ["'unsafe-inline'"])).toBeNull();
  });
});
