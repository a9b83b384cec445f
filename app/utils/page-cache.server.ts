import { createHash } from "node:crypto";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { listKidsForParent } from "#db/queries/kids";
import { findLiveSessionParent } from "#db/queries/sessions";
import type { DB } from "#db/index";
import { tokenFromHeaders } from "./auth.server";
import { KIDS_PAGE_SIZE, defaultKidId } from "../rules/kids";
import { TOAST_COOKIE } from "./toast.server";

/**
 * Rendered dashboards, kept per signed-in parent and reused while nothing they show has changed.
 *
 * The key holds everything the page is a function of:
 *  - the URL (path and query: kid, tab, Day/Week, dates, Show More counts, open popup);
 *  - the parent's whole row and the kids list exactly as the switcher reads it (so a rename, a new kid, an
 *    accepted or revoked delegation, a changed flag all make a new key);
 *  - the shown kid's `view_rev`, which database triggers move on every write to a table the dashboard reads
 *    (VIEW_REV_TABLES in db/view-revisions.ts; migration 2026-11-22T00-view-revisions), from any process;
 *  - the UTC day (today's chart, the kid's age, the footer's year).
 * And an entry lives only until the loader says (`context.pageCacheUntil`): the dashboard's "Blocked by Bedtime
 * until 07:00" and "25 minutes left today" change by time alone at the phone's next time-driven change (a
 * schedule starting or ending, a break ending, the kid's midnight), so the page is kept until then, no longer.
 * The session is checked on every request exactly as the route guard does (and its idle clock is refreshed),
 * so a signed-out or revoked session never sees a cached page. Not cached: requests carrying a toast (reading
 * it clears a cookie), the notification centre (opening it marks notifications read), a kid outside the
 * parent's first switcher page (the loader asks the access rule), anything but 200 without Set-Cookie.
 *
 * The CSP nonce differs per response: it is swapped for a placeholder when stored and the request's nonce is
 * put back when served. `Server-Timing: page-cache;desc=hit|miss` says which path answered.
 */

/** Tables the key covers directly: the session is checked per request; parent row and kids list are in the key. */
export const KEYED_TABLES = ["sessions", "parents", "delegations", "delegation_kids"] as const;

const NONCE_SLOT = "\u0000kp-nonce\u0000";

interface Entry {
  /** A document (string, nonce swapped for NONCE_SLOT) or a single-fetch `.data` body (bytes, no nonce). */
  body: string | Buffer;
  status: number;
  headers: [string, string][];
  bytes: number;
  /** ms since the epoch after which the entry is stale (Infinity: only a new key ends it). */
  expiresAt?: number;
}

export interface PageCacheStore {
  (html: string, status: number, headers: Headers): void;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

export class PageCache {
  private entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private maxBytes: number) {}

  /** A new memory bound (0 turns the cache off); entries beyond it are dropped, oldest first. */
  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.evict();
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(key: string, now: number = Date.now()): Entry | undefined {
    const e = this.entries.get(key);
    if (e && e.expiresAt !== undefined && now >= e.expiresAt) {
      this.entries.delete(key);
      this.bytes -= e.bytes;
      return undefined;
    }
    if (e) {
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    return e;
  }

  set(key: string, entry: Entry): void {
    if (entry.bytes > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    this.evict();
  }

  private evict(): void {
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): PageCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}

/** The storable form of a rendered page: the nonce swapped for a placeholder. */
export function toEntry(html: string, nonce: string, status: number, headers: Headers): Entry | null {
  if (status !== 200 || headers.has("Set-Cookie") || !nonce) return null;
  const kept: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.includes(name)) kept.push([name, value]);
  });
  const body = html.split(nonce).join(NONCE_SLOT);
  return { body, status, headers: kept, bytes: body.length * 2 + 256 };
}

export function fromEntry(entry: Entry, nonce: string): string | Buffer {
  return typeof entry.body === "string" ? entry.body.split(NONCE_SLOT).join(nonce) : entry.body;
}

const DROPPED_HEADERS = ["content-length", "content-encoding", "transfer-encoding", "set-cookie", "server-timing"];

/**
 * A single-fetch `.data` response (client-side navigation and revalidation with JavaScript) does not pass
 * through entry.server: its bytes are collected on their way out instead, and kept if the answer was a 200
 * without Set-Cookie. The wrapper sits above compression, so it sees the plain bytes.
 */
function captureDataResponse(res: ExpressResponse, keep: (entry: Entry) => void): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => ExpressResponse;
  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk == null || typeof chunk === "function") return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    collect(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    collect(chunk, rest[0]);
    if (res.statusCode === 200 && !res.getHeader("set-cookie")) {
      const headers: [string, string][] = [];
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value !== undefined && !DROPPED_HEADERS.includes(name)) headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      const body = Buffer.concat(chunks);
      keep({ body, status: 200, headers, bytes: body.length + 256 });
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
}

function hasCookie(header: string | undefined, name: string): boolean {
  if (!header) return false;
  return header.split(";").some((part) => part.trim().startsWith(`${name}=`));
}

/**
 * Express middleware for GET /kids-device documents and their single-fetch data (/kids-device.data). On a hit
 * it answers. On a document miss it hands Remix a `pageCacheStore` (through res.locals and the load context)
 * that entry.server calls with the rendered page; on a data miss it collects the bytes as they are sent.
 */
export function dashboardCache(opts: { db: DB; cache: PageCache; sessionPolicy: { idleMinutes: number; absoluteDays: number } }) {
  const { db, cache, sessionPolicy } = opts;
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!cache.enabled || req.method !== "GET") return next();
    try {
      // Read the query exactly as the loader does (first value of each name).
      const query = new URL(req.originalUrl, "http://localhost").searchParams;
      if (query.get("modal") === "notifications" || hasCookie(req.headers.cookie, TOAST_COOKIE)) return next();
      const token = await tokenFromHeaders(req.headers.authorization ?? null, req.headers.cookie ?? null);
      if (!token) return next();
      const parent = await findLiveSessionParent(db, token, sessionPolicy);
      if (!parent) return next();
      const requested = query.get("profileId");
      const revOf = (id: string) => db.selectFrom("kid_profiles").select("view_rev").where("id", "=", id).executeTakeFirst();
      // The named kid's revision is read beside the kids list (one round trip); it only counts if the kid is listed.
      const [kids, requestedRev] = await Promise.all([listKidsForParent(db, parent, { pageSize: KIDS_PAGE_SIZE }), requested ? revOf(requested) : null]);
      if (requested && !kids.some((k) => k.id === requested)) return next();
      const kidId = requested ?? defaultKidId(kids);
      const rev = requested ? requestedRev : kidId ? await revOf(kidId) : null;
      const key = createHash("sha256")
        .update(JSON.stringify([req.originalUrl, parent, kids, kidId, rev?.view_rev ?? null, new Date().toISOString().slice(0, 10)]))
        .digest("base64url");
      const isData = req.path.endsWith(".data");
      // The loader may shorten the entry's life (context.pageCacheUntil); the earliest time it names wins.
      let expiresAt = Infinity;
      res.locals.pageCacheUntil = (at: Date) => {
        if (at.getTime() < expiresAt) expiresAt = at.getTime();
      };
      const keep = (entry: Entry) => cache.set(key, Number.isFinite(expiresAt) ? { ...entry, expiresAt } : entry);
      const nonce = String(res.locals.cspNonce ?? "");
      const hit = nonce || isData ? cache.get(key) : undefined;
      if (hit) {
        cache.hits++;
        res.status(hit.status);
        for (const [name, value] of hit.headers) res.setHeader(name, value);
        res.setHeader("Server-Timing", 'page-cache;desc="hit"');
        res.end(fromEntry(hit, nonce));
        return;
      }
      cache.misses++;
      res.setHeader("Server-Timing", 'page-cache;desc="miss"');
      if (isData) {
        captureDataResponse(res, keep);
      } else {
        const store: PageCacheStore = (html, status, headers) => {
          const entry = toEntry(html, nonce, status, headers);
          if (entry) keep(entry);
        };
        res.locals.pageCacheStore = store;
      }
      // The loaders need the same session check and kids list: hand them over (perRequest reads them).
      res.locals.preloaded = { parent: { parent, token }, kids };
      next();
    } catch (err) {
      next(err);
    }
  };
}
