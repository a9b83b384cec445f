/**
 * The category lists in memory, for the resolver's lookups: every listed domain once, with a bit per category it is
 * listed in. A lookup walks the name's suffixes (`a.b.example.com`, `b.example.com`, `example.com`, `com`), never
 * the list, so it costs the same with 500 or 1,000,000 domains.
 *
 * Packed, because a JavaScript Map of 1,000,000 strings costs ~100 MB: the domains' ASCII bytes lie end to end in
 * one buffer; per domain a start offset, a length and a category bit mask sit in typed arrays; an open-addressing
 * hash table (linear probing, at most half full) holds entry numbers. The hash is FNV-1a over the name's bytes from
 * the last to the first, so one pass from the end of a name gives the hash of every suffix at each dot.
 * bench/web-filter-lists.ts measures it (docs/web-filter-lists.md).
 */

/** At most 32 categories: one bit each in a Uint32. */
export const MAX_CATEGORIES = 32;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const step = (h: number, byte: number) => Math.imul(h ^ byte, FNV_PRIME) >>> 0;

function grown<T extends Uint8Array | Uint32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

export class DomainIndex {
  readonly categoryIds: readonly string[];
  private text = new Uint8Array(1 << 16);
  private textLength = 0;
  private starts = new Uint32Array(1 << 12);
  private lengths = new Uint8Array(1 << 12);
  private masks = new Uint32Array(1 << 12);
  private entries = 0;
  /** Entry number + 1 per slot; 0 is empty. Its length is a power of two. */
  private slots = new Uint32Array(1 << 13);
  private readonly counts: number[];

  constructor(categoryIds: readonly string[]) {
    if (categoryIds.length > MAX_CATEGORIES) throw new Error(`at most ${MAX_CATEGORIES} categories (${categoryIds.length} given)`);
    this.categoryIds = [...categoryIds];
    this.counts = categoryIds.map(() => 0);
  }

  /** How many distinct domains are listed. */
  get size(): number {
    return this.entries;
  }

  /** Listed domains per category id (a domain in two categories counts in both). */
  countsByCategory(): Record<string, number> {
    return Object.fromEntries(this.categoryIds.map((id, i) => [id, this.counts[i]]));
  }

  /** The bytes the index holds (its typed arrays), for the bench and the log. */
  get byteLength(): number {
    return this.text.byteLength + this.starts.byteLength + this.lengths.byteLength + this.masks.byteLength + this.slots.byteLength;
  }

  /** Lists a normalised domain (lower-case ASCII, as web-filter/lists/domain-name.ts makes it) in a category. */
  add(domain: string, categoryId: string): void {
    const bit = this.categoryIds.indexOf(categoryId);
    if (bit < 0) throw new Error(`unknown category ${categoryId}`);
    let h = FNV_OFFSET;
    for (let i = domain.length - 1; i >= 0; i--) h = step(h, domain.charCodeAt(i));
    const found = this.find(h, domain, 0, domain.length);
    if (found >= 0) {
      if (!(this.masks[found] & (1 << bit))) this.counts[bit]++;
      this.masks[found] |= 1 << bit;
      return;
    }
    if ((this.entries + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    const e = this.entries++;
    this.starts = grown(this.starts, this.entries);
    this.lengths = grown(this.lengths, this.entries);
    this.masks = grown(this.masks, this.entries);
    this.text = grown(this.text, this.textLength + domain.length);
    for (let i = 0; i < domain.length; i++) this.text[this.textLength + i] = domain.charCodeAt(i);
    this.starts[e] = this.textLength;
    this.lengths[e] = domain.length;
    this.masks[e] = 1 << bit;
    this.textLength += domain.length;
    this.counts[bit]++;
    this.place(h, e);
  }

  /** Trims the spare room left by growing (call once the lists are loaded). */
  compact(): void {
    this.text = this.text.slice(0, this.textLength);
    this.starts = this.starts.slice(0, this.entries);
    this.lengths = this.lengths.slice(0, this.entries);
    this.masks = this.masks.slice(0, this.entries);
  }

  /** The bit mask of the categories listing `name` or one of its parent domains (whole labels); 0 when none. */
  maskOf(name: string): number {
    let mask = 0;
    let h = FNV_OFFSET;
    for (let i = name.length - 1; i >= 0; i--) {
      const c = name.charCodeAt(i);
      if (c > 0x7e) return 0; // listed names are ASCII (punycode)
      h = step(h, c);
      if (i === 0 || name.charCodeAt(i - 1) === 0x2e) {
        const e = this.find(h, name, i, name.length - i);
        if (e >= 0) mask |= this.masks[e];
      }
    }
    return mask;
  }

  /** The ids of the categories listing `name` (lower case, no trailing dot) or a parent domain, in category order. */
  lookupCategories(name: string): string[] {
    const mask = this.maskOf(name);
    return mask ? this.categoryIds.filter((_, i) => mask & (1 << i)) : [];
  }

  private find(h: number, name: string, from: number, length: number): number {
    const last = this.slots.length - 1;
    for (let s = h & last; ; s = (s + 1) & last) {
      const slot = this.slots[s];
      if (slot === 0) return -1;
      const e = slot - 1;
      if (this.lengths[e] !== length) continue;
      const start = this.starts[e];
      let i = 0;
      while (i < length && this.text[start + i] === name.charCodeAt(from + i)) i++;
      if (i === length) return e;
    }
  }

  private place(h: number, e: number): void {
    const last = this.slots.length - 1;
    let s = h & last;
    while (this.slots[s] !== 0) s = (s + 1) & last;
    this.slots[s] = e + 1;
  }

  private rehash(size: number): void {
    this.slots = new Uint32Array(size);
    for (let e = 0; e < this.entries; e++) {
      let h = FNV_OFFSET;
      const start = this.starts[e];
      for (let i = this.lengths[e] - 1; i >= 0; i--) h = step(h, this.text[start + i]);
      this.place(h, e);
    }
  }
}
