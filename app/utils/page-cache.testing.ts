import Database from "better-sqlite3";

/** A GET with redirects not followed: the answer, its body, which page-cache path answered and the CSP nonce. */
export async function cachedGet(base: string, pathAndQuery: string, headers: Record<string, string>) {
  const res = await fetch(`${base}${pathAndQuery}`, { headers, redirect: "manual" });
  const html = await res.text();
  const cache = /page-cache;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? null;
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1] ?? null;
  return { res, html, cache, nonce };
}

/**
 * Every SQLite statement run while `work` runs, in this process (better-sqlite3's statement methods are wrapped
 * for the while): the page-cache tests check that a cached page reads only tables whose writes it is told of.
 */
export async function statementsDuring(work: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const proto = Object.getPrototypeOf(new Database(":memory:").prepare("select 1")) as Record<string, (...a: unknown[]) => unknown>;
  const originals = Object.fromEntries(["all", "get", "run", "iterate"].map((m) => [m, proto[m]]));
  for (const m of Object.keys(originals)) {
    proto[m] = function (this: { source: string }, ...a: unknown[]) {
      seen.push(this.source);
      return originals[m].apply(this, a);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(proto, originals);
  }
  return seen;
}

/** The tables a statement names after FROM, JOIN, INTO or UPDATE. */
export function tablesOf(statements: string[]): Set<string> {
  const tables = new Set<string>();
  for (const s of statements) for (const m of s.matchAll(/\b(?:from|join|into|update)\s+"?(\w+)"?/gi)) tables.add(m[1]);
  return tables;
}
