import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { findLiveSessionWithKids } from "#db/queries/kids";
import type { DB } from "#db/index";
import { tokenFromHeaders } from "./auth.server";
import { KIDS_PAGE_SIZE, defaultKidId } from "../rules/kids";
import { TOAST_COOKIE } from "./toast.server";
import { scriptsByHash } from "./security.server";
import { isSingleFetchData } from "./request-limits.server";
import { setBounded } from "#core/bounded";

/**
 * Rendered dashboards and Global Settings pages, kept per signed-in parent and reused while nothing they show has
 * changed (PAGE_CACHE_PATHS; Global Settings since issue 22's mixed load, where its ~20 ms render was the slowest).
 *
 * The key holds everything the page is a function of:
 *  - the URL (path and query: kid, tab, Day/Week, dates, Show More counts, open popup; Global Settings' drafts);
 *  - the parent's whole row and the kids list exactly as the switcher reads it (so a rename, a new kid, an
 *    accepted or revoked delegation, a changed flag all make a new key);
 *  - the shown kid's `view_rev`, which database triggers move on every write to a table these pages read
 *    (VIEW_REV_TABLES and VIEW_REV_ROWS in db/view-revisions.ts; migrations 2026-11-22T00-view-revisions,
 *    2026-11-27T00-settings-view-rev), from any process — the
 *    usage tables' writers move it themselves, in the same transaction (BUMPED_BY_WRITERS there; decision 004);
 *  - the UTC day (today's chart, the kid's age, the footer's year).
 * And an entry lives only until the loader says (`context.pageCacheUntil`): the dashboard's "Blocked by Bedtime
 * until 07:00" and "25 minutes left today" change by time alone at the phone's next time-driven change (a
 * schedule starting or ending, a break ending, the kid's midnight), so the page is kept until then, no longer.
 * The session is checked on every request exactly as the route guard does (and its idle clock is refreshed),
 * so a signed-out or revoked session never sees a cached page. Not cached: requests carrying a toast (reading
 * it clears a cookie), the notification centre (opening it marks notifications read), a kid outside the
 * parent's first switcher page (the loader asks the access rule), Global Settings without a kid in its URL (the
 * loader redirects), anything but 200 without Set-Cookie.
 *
 * A stored page is served to many responses, so it carries no nonce: its inline scripts are authorised by their
 * sha256 hashes, computed once when it is stored, from the scripts the render marked with its nonce (toEntry).
 * Bodies are kept gzip-compressed, so a hit neither rewrites nor compresses the page.
 * `Server-Timing: page-cache;desc=hit|miss` says which path answered.
 */

/**
 * Tables the key covers directly: the session is checked per request; parent row and kids list are in the key.
 * Another parent's row (who last changed a setting: "Changed by Sam (sam@example.com)") is not in the key: a change
 * of a parent's name or e-mail moves the revision of every kid whose pages can name them (migration
 * 2026-11-27T01-actor-names-view-rev). The header's alert bell: the parent's unread alert count is read per request
 * (`unreadAlertsForKey`, one indexed count) and is in the key.
 */
export const KEYED_TABLES = ["sessions", "parents", "delegations", "delegation_kids", "alerts"] as const;

interface Entry {
  /** The body, gzip-compressed once when stored: a document without nonce attributes, or a single-fetch `.data` body. */
  gz: Buffer;
  /** A document's CSP script sources: the sha256 hash of each inline script the render marked with its nonce. */
  scriptHashes?: string[];
  status: number;
  headers: [string, string][];
  bytes: number;
  /** ms since the epoch after which the entry is stale (Infinity: only a new key ends it). */
  expiresAt?: number;
}

/**
 * Handed to entry.server on a document miss: it stores the rendered page when it may be kept, and then returns
 * the body to send instead of the rendered one (the stored form, gzip when the client takes it; the response's
 * CSP is switched to the stored page's script hashes), or null to send the page as rendered.
 */
export interface PageCacheStore {
  /** `page`: the rendered document's UTF-8 bytes. */
  (page: Buffer, status: number, headers: Headers): Buffer | null;
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

  /** The memory bound in bytes (0: off). */
  get limit(): number {
    return this.maxBytes;
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

/**
 * The storable form of a rendered page. A stored page is served to many responses, so it cannot carry one
 * response's nonce: every inline script that the render marked with this render's nonce (and only those —
 * markup injected into the page could not know the nonce) is authorised by the sha256 hash of its exact text
 * instead, and the nonce attributes are removed. Nothing else may mention the nonce (else the page is not kept).
 */
export function toEntry(page: Buffer, nonce: string, status: number, headers: Headers): Entry | null {
  if (status !== 200 || headers.has("Set-Cookie") || !nonce) return null;
  // The page is read byte for byte (latin1: one character a byte), never decoded: every pattern below is ASCII,
  // and UTF-8 never has an ASCII byte inside a multi-byte character, so they match exactly as in the text. Decoding
  // an 80 KB dashboard that holds any non-ASCII character took ~0.7 ms (V8's slow path), and encoding it again more.
  const html = page.toString("latin1");
  const attribute = ` nonce="${nonce}"`;
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    // The hash of the script's UTF-8 bytes, as the browser computes it: its bytes are these characters' codes.
    if (m[1].includes(attribute) && !/\ssrc=/i.test(m[1]))
      hashes.add(`'sha256-${createHash("sha256").update(m[2], "latin1").digest("base64")}'`);
  }
  const body = html.split(attribute).join("");
  if (body.includes(nonce)) return null;
  const gz = gzipToKeep(Buffer.from(body, "latin1"));
  return { gz, scriptHashes: [...hashes], status, headers: keptHeaders(headers), bytes: gz.length + 512 };
}

function keptHeaders(headers: Headers): [string, string][] {
  const kept: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.includes(name)) kept.push([name, value]);
  });
  return kept;
}

/**
 * Sends a stored body: as stored when the client takes gzip (the compression middleware leaves an encoded body
 * alone), else decompressed (and the middleware may apply another encoding the client takes).
 */
function sendStored(req: ExpressRequest, res: ExpressResponse, gz: Buffer): void {
  if (takesGzip(req)) {
    res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", gz.length);
    res.end(gz);
  } else {
    res.end(gunzipSync(gz));
  }
}

/**
 * Whether the client takes gzip: a function of its Accept-Encoding header alone, which a browser sends the same on
 * every request, so each header's answer is kept (bounded; Express's negotiation was 2 % of a hit).
 */
function takesGzip(req: ExpressRequest): boolean {
  const header = req.headers["accept-encoding"] ?? "";
  let takes = gzipTaken.get(header);
  if (takes === undefined) {
    takes = Boolean(req.acceptsEncodings("gzip"));
    if (header.length <= 256) setBounded(gzipTaken, header, takes, 100);
  }
  return takes;
}

const gzipTaken = new Map<string, boolean>();

/** The response's CSP with the stored page's script hashes in place of its nonce (null: not the expected policy). */
function hashedCsp(res: ExpressResponse, nonce: string, hashes: string[]): string | null {
  const csp = res.getHeader("Content-Security-Policy");
  return typeof csp === "string" ? scriptsByHash(csp, nonce, hashes) : null;
}

/**
 * A miss compresses on its way out (the response waits for it): level 3 took ~0.9 ms for an 83 KB dashboard where
 * the default 6 took ~1.5 ms, for a body 10 % larger (15.0 KB against 13.6 KB).
 */
const GZIP = { level: 3 };

/**
 * A stored body in memory of its own size. zlib's sync output under 16 KB is a view of its 16 KB output chunk, so a
 * 12 KB dashboard kept 16 KB (measured: 16,384 bytes of array buffers freed per entry), beyond the bytes the cache
 * counts. Copied into a buffer outside Node's shared pool, which a small slice would keep whole.
 */
export function compact(buf: Buffer): Buffer {
  if (buf.byteLength === buf.buffer.byteLength) return buf;
  const own = Buffer.allocUnsafeSlow(buf.byteLength);
  buf.copy(own);
  return own;
}

/** A body as the cache keeps it: gzip at GZIP's level, in memory of its own size. */
const gzipToKeep = (plain: Buffer) => compact(gzipSync(plain, GZIP));

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
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array),
    );
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
        if (value !== undefined && !DROPPED_HEADERS.includes(name))
          headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      const gz = gzipToKeep(Buffer.concat(chunks));
      keep({ gz, status: 200, headers, bytes: gz.length + 512 });
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
}

function hasCookie(header: string | undefined, name: string): boolean {
  if (!header) return false;
  return header.split(";").some((part) => part.trim().startsWith(`${name}=`));
}

/**
 * The pages the page cache answers, documents and single-fetch data (its Express route in server.ts). The dashboard
 * shows the first kid when its URL names none; Global Settings redirects to a URL that names one, and only that
 * second request is looked up.
 */
const CACHED_PAGES: Record<string, { kidInUrl: boolean }> = { "/kids-device": { kidInUrl: false }, "/global-settings": { kidInUrl: true } };
export const PAGE_CACHE_PATHS = Object.keys(CACHED_PAGES).flatMap((p) => [p, `${p}.data`]);

/**
 * Whether a request goes to pageCacheRoute: a GET or HEAD of one of its paths, matched as Express matches a route
 * (any case, one trailing slash). The compression middleware is set up by the cache for these (pageCacheRoute).
 */
export function isPageCacheGet(req: ExpressRequest): boolean {
  return (req.method === "GET" || req.method === "HEAD") && CACHED_PATH.test(req.path);
}

const CACHED_PATH = new RegExp(`^(?:${PAGE_CACHE_PATHS.map((p) => p.replace(/[.]/g, "\\.")).join("|")})/?$`, "i");

function kidInUrl(path: string): boolean {
  const page = path
    .toLowerCase()
    .replace(/\/$/, "")
    .replace(/\.data$/, "");
  return CACHED_PAGES[page]?.kidInUrl ?? false;
}

/**
 * Express middleware for GET documents of the cached pages and their single-fetch data (`.data`). On a hit it
 * answers. On a document miss it hands Remix a `pageCacheStore` (through res.locals and the load context) that
 * entry.server calls with the rendered page; on a data miss it collects the bytes as they are sent.
 */
export function pageCacheRoute(opts: {
  db: DB;
  cache: PageCache;
  sessionPolicy: { idleMinutes: number; absoluteDays: number };
  compress: RequestHandler;
}) {
  const { db, cache, sessionPolicy, compress } = opts;
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    // Every response but a hit (sent as stored, already gzip) is compressed, as elsewhere: the compression middleware
    // is set up only when the request goes on, under a data miss's byte collector, which sees the plain bytes.
    const pass = (setUp?: () => void) =>
      compress(req, res, (err?: unknown) => {
        if (err) return next(err);
        setUp?.();
        next();
      });
    if (!cache.enabled || req.method !== "GET") return pass();
    try {
      // Read the query exactly as the loader does (first value of each name).
      const q = req.originalUrl.indexOf("?");
      const query = new URLSearchParams(q < 0 ? "" : req.originalUrl.slice(q + 1));
      if (query.get("modal") === "notifications" || hasCookie(req.headers.cookie, TOAST_COOKIE)) return pass();
      const token = await tokenFromHeaders(req.headers.authorization ?? null, req.headers.cookie ?? null);
      if (!token) return pass();
      // The session check and the kids list (with their revisions) in one statement: the list is read through the
      // session's row and used only once the check has found it live.
      const live = await findLiveSessionWithKids(db, token, sessionPolicy, { pageSize: KIDS_PAGE_SIZE });
      if (!live) return pass();
      const { parent, kids, viewRevs } = live;
      const requested = query.get("profileId");
      if (requested && !kids.some((k) => k.id === requested)) return pass();
      if (!requested && kidInUrl(req.path)) return pass();
      const kidId = requested ?? defaultKidId(kids);
      const rev = (kidId && viewRevs.get(kidId)) ?? null;
      // The key is the text itself: a Map hashes and compares it faster than a SHA-256 digest of it is made (the
      // digest was 3 % of a hit); its length counts in the entry's bytes (keep).
      const unread = await unreadAlertsForKey(db, parent.id);
      const key = JSON.stringify([req.originalUrl, parent, kids, kidId, rev, unread, new Date().toISOString().slice(0, 10)]);
      const isData = isSingleFetchData(req);
      // The loader may shorten the entry's life (context.pageCacheUntil); the earliest time it names wins.
      let expiresAt = Infinity;
      res.locals.pageCacheUntil = (at: Date) => {
        if (at.getTime() < expiresAt) expiresAt = at.getTime();
      };
      const keep = (entry: Entry) =>
        cache.set(key, { ...entry, bytes: entry.bytes + 2 * key.length, ...(Number.isFinite(expiresAt) ? { expiresAt } : {}) });
      const nonce = String(res.locals.cspNonce ?? "");
      const hit = nonce || isData ? cache.get(key) : undefined;
      const csp = hit?.scriptHashes ? hashedCsp(res, nonce, hit.scriptHashes) : null;
      if (hit && (isData || csp)) {
        cache.hits++;
        res.statusCode = hit.status;
        for (const [name, value] of hit.headers) res.setHeader(name, value);
        if (csp) res.setHeader("Content-Security-Policy", csp);
        res.setHeader("Server-Timing", 'page-cache;desc="hit"');
        sendStored(req, res, hit.gz);
        return;
      }
      cache.misses++;
      res.setHeader("Server-Timing", 'page-cache;desc="miss"');
      pass(() => {
        if (isData) {
          captureDataResponse(res, keep);
        } else {
          // The miss is answered with the stored form too: one compression, and the same page and policy as every hit.
          const store: PageCacheStore = (page, status, headers) => {
            const entry = toEntry(page, nonce, status, headers);
            const csp = entry?.scriptHashes ? hashedCsp(res, nonce, entry.scriptHashes) : null;
            if (!entry || !csp) return null;
            keep(entry);
            res.setHeader("Content-Security-Policy", csp);
            if (!takesGzip(req)) return gunzipSync(entry.gz);
            headers.set("Content-Encoding", "gzip");
            return entry.gz;
          };
          res.locals.pageCacheStore = store;
        }
        // The loaders need the same session check and kids list: hand them over (perRequest reads them).
        res.locals.preloaded = { parent: { parent, token }, kids };
      });
    } catch (err) {
      next(err);
    }
  };
}

/** The parent's unread alerts in the centre (the header's bell), for the key: a new alert or one read makes a new key. */
async function unreadAlertsForKey(db: DB, parentId: string): Promise<number> {
  const row = await db
    .selectFrom("alerts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("parent_id", "=", parentId)
    .where("in_centre", "=", 1)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
