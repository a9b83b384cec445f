import type { Answer } from "dns-packet";

/** An upstream answer as kept: its response code and records, when it was received and how long it may be served. */
export interface CachedAnswer {
  rcode: string;
  answers: Answer[];
  authorities: Answer[];
  receivedAt: number;
  ttlSeconds: number;
}

/**
 * Upstream answers by name and type, each served until its TTL runs out, the least recently used dropped first once
 * `maxEntries` are held (so a flood of random names cannot grow the process).
 */
export class AnswerCache {
  private readonly entries = new Map<string, CachedAnswer>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() >= entry.receivedAt + entry.ttlSeconds * 1000) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  set(key: string, entry: CachedAnswer): void {
    if (entry.ttlSeconds <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
