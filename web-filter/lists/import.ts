import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { sql } from "kysely";
import type { DB } from "../../db/index";
import { dbDialect } from "../../db/dialect";
import { markListsChanged } from "../../db/queries/web-filter/categories";
import { deleteSourceDomains, insertListedDomains } from "../../db/queries/web-filter/domains";
import { parseListLine, type SkipReason } from "./list-line";

/**
 * Reads block lists (hosts files, AdBlock-style `||domain^` lists, plain domain lists; list-line.ts) into one
 * category, line by line from a file or a URL (never a whole file in memory), deduped, written in batches of
 * `batch` domains, each batch one transaction. The command line is cli.ts.
 */

export interface ImportOptions {
  categoryId: string;
  source: string;
  /** Remove the source's domains from the category first. Not atomic: until the import ends the source lists fewer. */
  replace: boolean;
  /** File paths or http(s) URLs. */
  inputs: string[];
  batch?: number;
  /** Called every `progressEvery` lines, at every tenth of an input whose size is known, and at the end of each input. */
  onProgress?: (p: ImportProgress) => void;
  progressEvery?: number;
}

export interface ImportProgress {
  input: string;
  lines: number;
  /** Bytes read and the input's size (null when unknown: a URL without Content-Length). */
  bytes: number;
  size: number | null;
}

export interface ImportSummary {
  lines: number;
  commentsOrBlank: number;
  /** Distinct domains the inputs list. */
  domains: number;
  added: number;
  alreadyListed: number;
  /** Listed more than once in the inputs (counted once). */
  duplicates: number;
  skipped: Partial<Record<SkipReason, number>>;
  /** Domains of the source removed first (`--replace`). */
  removed: number;
}

async function open(input: string): Promise<{ stream: Readable; size: number | null }> {
  if (/^https?:\/\//i.test(input)) {
    const res = await fetch(input);
    if (!res.ok || !res.body) throw new Error(`${input}: HTTP ${res.status}`);
    const length = Number(res.headers.get("content-length"));
    const encoded = res.headers.get("content-encoding");
    return { stream: Readable.fromWeb(res.body as import("node:stream/web").ReadableStream), size: length > 0 && !encoded ? length : null };
  }
  const { size } = await stat(input);
  return { stream: createReadStream(input), size };
}

/**
 * SQLite: a page cache big enough for the domains' b-trees while importing (64 MB instead of 2 MB): inserts land at
 * random places in them, and with the small cache 1,000,000 domains took 108 s instead of 63 s (bench/web-filter-lists.ts).
 * Restored after.
 */
async function withImportCache<T>(db: DB, run: () => Promise<T>): Promise<T> {
  if (dbDialect(db) !== "sqlite") return run();
  const before = (await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(db)).rows[0].cache_size;
  await sql.raw("PRAGMA cache_size = -65536").execute(db);
  try {
    return await run();
  } finally {
    await sql.raw(`PRAGMA cache_size = ${Number(before)}`).execute(db);
  }
}

/**
 * The import; when it changed the lists (even when it then failed part way: its batches are committed one by one),
 * the category is marked changed, so the running processes load the lists again within a minute (server/web-filter.ts).
 */
export async function importLists(db: DB, o: ImportOptions): Promise<ImportSummary> {
  const written = { rows: 0 };
  try {
    return await withImportCache(db, () => importInto(db, o, written));
  } finally {
    if (written.rows) await markListsChanged(db, o.categoryId);
  }
}

async function importInto(db: DB, o: ImportOptions, written: { rows: number }): Promise<ImportSummary> {
  const batchSize = o.batch ?? 5_000;
  const every = o.progressEvery ?? 100_000;
  const summary: ImportSummary = {
    lines: 0,
    commentsOrBlank: 0,
    domains: 0,
    added: 0,
    alreadyListed: 0,
    duplicates: 0,
    skipped: {},
    removed: 0,
  };
  if (o.replace) {
    summary.removed = await deleteSourceDomains(db, o.categoryId, o.source);
    written.rows += summary.removed;
  }
  const seen = new Set<string>();
  let batch: string[] = [];
  const flush = async () => {
    batch.sort(); // neighbours in the primary key's b-tree: fewer pages touched per transaction
    const added = await insertListedDomains(
      db,
      batch.map((domain) => ({ domain, category_id: o.categoryId, source: o.source })),
    );
    summary.added += added;
    written.rows += added;
    summary.alreadyListed += batch.length - added;
    batch = [];
  };

  for (const input of o.inputs) {
    const { stream, size } = await open(input);
    let bytes = 0;
    stream.on("data", (chunk: Buffer) => (bytes += chunk.length));
    const name = /^https?:/i.test(input) ? input : path.basename(input);
    let lines = 0;
    let nextTenth = 1;
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      lines++;
      const r = parseListLine(line);
      if (!r.domains.length && !r.skipped.length) summary.commentsOrBlank++;
      for (const reason of r.skipped) summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1;
      for (const d of r.domains) {
        if (seen.has(d)) {
          summary.duplicates++;
          continue;
        }
        seen.add(d);
        batch.push(d);
      }
      if (batch.length >= batchSize) await flush();
      const tenth = size ? Math.floor((bytes / size) * 10) : 0;
      if (lines % every === 0 || (size && tenth >= nextTenth && tenth < 10)) {
        if (size) nextTenth = tenth + 1;
        o.onProgress?.({ input: name, lines, bytes, size });
      }
    }
    summary.lines += lines;
    o.onProgress?.({ input: name, lines, bytes, size });
  }
  if (batch.length) await flush();
  summary.domains = seen.size;
  return summary;
}
