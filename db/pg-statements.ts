import { createHash } from "node:crypto";
import type pg from "pg";
import { setBounded } from "../core/bounded";

/**
 * Named (prepared) statements on PostgreSQL for the queries the product runs again and again.
 *
 * Kysely sends every query as an unnamed statement, which PostgreSQL parses and plans on every execution. For the
 * dashboard that planning was about half of PostgreSQL's CPU: 10.0–10.6 ms of backend CPU a full render, 5.2–6.5 ms
 * with its statements named (decision 008). The dashboard's kids list alone plans in ~0.5 ms
 * and runs in ~0.1 ms. A named statement is parsed once per connection; PostgreSQL then plans it per execution for
 * its first five, and keeps a generic plan after that when the generic plan is not costlier (its own rule,
 * plan_cache_mode = auto), so a query whose best plan depends on its values still gets custom plans.
 *
 * A text is named from its second run on (a one-off query costs no server memory), by a hash of its text (names
 * never collide). A text with more than `maxValues` values is never named: those are the batches (`in (…)` lists of
 * every length up to 500 in a reconnect storm), whose planning is shared by their many rows already, and whose
 * every length would be another statement held by every connection. At most `max` texts are named; beyond that
 * queries run unnamed, as before. The run counts are bounded too.
 *
 * A text whose named statement failed with "cached plan must not change result type" (a table's columns changed
 * under a `select *` while the connection was open: a migration applied by another process) is never named again in
 * this process; that one query fails, as it would have failed the next run anyway.
 */
export class StatementNames {
  private readonly runs = new Map<string, number>();
  private readonly named = new Map<string, string>();
  private readonly refused = new Set<string>();

  constructor(
    private readonly max = 500,
    private readonly maxCounted = 10_000,
    private readonly maxValues = 32,
  ) {}

  /** The name to run `text` (with `values` values) under, or null (run it unnamed). */
  nameOf(text: string, values = 0): string | null {
    const name = this.named.get(text);
    if (name) return name;
    if (values > this.maxValues || this.refused.has(text) || this.named.size >= this.max) return null;
    const runs = (this.runs.get(text) ?? 0) + 1;
    if (runs < 2) {
      setBounded(this.runs, text, runs, this.maxCounted);
      return null;
    }
    this.runs.delete(text);
    const fresh = `k_${createHash("sha1").update(text).digest("base64url")}`;
    this.named.set(text, fresh);
    return fresh;
  }

  /** A named run of `text` failed with `err`: stop naming it if the statement itself can no longer be used. */
  failed(text: string, err: unknown): void {
    if (isStalePlan(err)) {
      this.named.delete(text);
      this.refused.add(text);
    }
  }

  get size(): number {
    return this.named.size;
  }
}

function isStalePlan(err: unknown): boolean {
  return err instanceof Error && /cached plan must not change result type/.test(err.message);
}

type Query = (...args: unknown[]) => unknown;

/**
 * Makes `client.query(text, values)` (how Kysely's PostgresDialect runs every query) run under the name `names`
 * gives. Other forms (config objects, cursors, queries without values) pass through unchanged.
 */
export function nameStatements(client: pg.PoolClient | pg.Client, names: StatementNames): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    // Only a query with values: one without runs on the simple protocol, which also takes several statements in one
    // text (migrations, `begin`), and a named statement could not.
    if (typeof text !== "string" || !Array.isArray(values) || values.length === 0 || rest.length) return query(text, values, ...rest);
    const name = names.nameOf(text, values.length);
    if (!name) return query(text, values);
    return (query({ name, text, values }) as Promise<unknown>).catch((err: unknown) => {
      names.failed(text, err);
      throw err;
    });
  };
}
