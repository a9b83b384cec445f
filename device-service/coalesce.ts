/**
 * Coalesced reads by key (issue 22: the reconnect storm). A phone's connection costs a few small reads (its
 * credential, the parents to tell, its open commands, its installs waiting for it to come online): one query
 * each, one round trip each. When thousands of phones reconnect at once (kill -9 of a device process), those
 * round trips, not the rows, are the cost. Here the reads asked for while one is running, or in the same turn of
 * the event loop, go to the database together: one query for up to `max` keys.
 *
 * An idle read waits for nothing but the end of the current turn (setImmediate). One batch runs at a time per
 * reader; a failed batch fails each of its callers with the same error (they retry as they would a failed read).
 */
export type Load<V> = (keys: string[]) => Promise<Map<string, V>>;

export interface Coalesced<V> {
  /** The value for `key`, or undefined when the load returned none for it. */
  (key: string): Promise<V | undefined>;
  /** Batches run and keys read so far (tests, benches). */
  stats(): { batches: number; keys: number };
}

type Waiter<V> = { resolve: (v: V | undefined) => void; reject: (err: unknown) => void };

export function coalesce<V>(load: Load<V>, opts: { max?: number } = {}): Coalesced<V> {
  const b = batcher<undefined, V>(
    (batch) => load([...batch.keys()]),
    () => undefined,
    opts.max,
  );
  const read = ((key: string) => b.add(key, undefined)) as Coalesced<V>;
  read.stats = b.stats;
  return read;
}

export interface CoalescedWrite<I> {
  /** Resolves once a batch holding this write (merged with later ones for the same key) is written. */
  (key: string, input: I): Promise<void>;
  stats(): { batches: number; keys: number };
}

/**
 * Coalesced writes by key: writes asked for together are written together (`write` gets one entry per key; two
 * writes for one key in the same batch are merged, the later's fields winning). Each caller resolves after the
 * batch that holds its write is written, or fails with that batch's error.
 */
export function coalesceWrites<I extends object>(
  write: (batch: Map<string, I>) => Promise<void>,
  opts: { max?: number } = {},
): CoalescedWrite<I> {
  const b = batcher<I, undefined>(
    async (batch) => {
      await write(batch);
      return new Map();
    },
    (prev, next) => (prev ? { ...prev, ...next } : next),
    opts.max,
  );
  const put = ((key: string, input: I) => b.add(key, input).then(() => undefined)) as CoalescedWrite<I>;
  put.stats = b.stats;
  return put;
}

/** The machinery of both: keys waiting with their (merged) input; one batch of at most `max` keys in flight. */
function batcher<I, V>(
  run: (batch: Map<string, I>) => Promise<Map<string, V>>,
  merge: (prev: I | undefined, next: I) => I,
  maxKeys?: number,
) {
  const max = maxKeys ?? 500;
  let waiting = new Map<string, { input: I; waiters: Waiter<V>[] }>();
  let scheduled = false;
  let running = false;
  const counts = { batches: 0, keys: 0 };

  const schedule = () => {
    if (scheduled || running || waiting.size === 0) return;
    scheduled = true;
    setImmediate(go);
  };

  async function go() {
    scheduled = false;
    running = true;
    let batch: typeof waiting;
    if (waiting.size <= max) {
      batch = waiting;
      waiting = new Map();
    } else {
      batch = new Map();
      for (const [k, w] of waiting) {
        if (batch.size >= max) break;
        batch.set(k, w);
      }
      for (const k of batch.keys()) waiting.delete(k);
    }
    counts.batches++;
    counts.keys += batch.size;
    try {
      const found = await run(new Map([...batch].map(([k, e]) => [k, e.input])));
      for (const [k, e] of batch) for (const w of e.waiters) w.resolve(found.get(k));
    } catch (err) {
      for (const e of batch.values()) for (const w of e.waiters) w.reject(err);
    } finally {
      running = false;
      schedule();
    }
  }

  return {
    add: (key: string, input: I) =>
      new Promise<V | undefined>((resolve, reject) => {
        const e = waiting.get(key);
        if (e) {
          e.input = merge(e.input, input);
          e.waiters.push({ resolve, reject });
        } else waiting.set(key, { input: merge(undefined, input), waiters: [{ resolve, reject }] });
        schedule();
      }),
    stats: () => ({ ...counts }),
  };
}

/** Groups rows by a key (a reader's load returning several rows per key). */
export function groupBy<T>(rows: T[], keyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = keyOf(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/**
 * Runs `each` over `items`, `size` at a time, letting the event loop turn (setImmediate) between two chunks, so I/O
 * waiting meanwhile (a command, an acknowledgement) is served after at most one chunk. Stops when `stop()` says so.
 */
export function inChunks<T>(items: T[], size: number, each: (item: T) => void, stop: () => boolean = () => false): void {
  const run = (from: number) => {
    if (stop()) return;
    for (let i = from; i < Math.min(items.length, from + size); i++) each(items[i]!);
    if (from + size < items.length) setImmediate(run, from + size);
  };
  run(0);
}
