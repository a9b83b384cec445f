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
  const max = opts.max ?? 500;
  let waiting = new Map<string, Waiter<V>[]>();
  let scheduled = false;
  let running = false;
  const counts = { batches: 0, keys: 0 };

  const schedule = () => {
    if (scheduled || running || waiting.size === 0) return;
    scheduled = true;
    setImmediate(run);
  };

  async function run() {
    scheduled = false;
    running = true;
    let batch: Map<string, Waiter<V>[]>;
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
      const found = await load([...batch.keys()]);
      for (const [k, ws] of batch) for (const w of ws) w.resolve(found.get(k));
    } catch (err) {
      for (const ws of batch.values()) for (const w of ws) w.reject(err);
    } finally {
      running = false;
      schedule();
    }
  }

  const read = ((key: string) =>
    new Promise<V | undefined>((resolve, reject) => {
      const ws = waiting.get(key);
      if (ws) ws.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      schedule();
    })) as Coalesced<V>;
  read.stats = () => ({ ...counts });
  return read;
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
