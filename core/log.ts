import type { LogFileSink } from "./log-files.server";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  /** Also write each line here (the daily files under DATA_DIR/logs, core/log-files.server.ts). */
  sink?: LogFileSink;
  /** Instead of stdout/stderr (tests). */
  stdout?: (line: string) => void;
}

/** One-line JSON logs. Never pass passwords, tokens or card data in `extra`. */
export function createLogger(minLevel: Level = "info", opts: LoggerOptions = {}) {
  return (level: Level, msg: string, extra?: Record<string, unknown>) => {
    if (order[level] < order[minLevel]) return;
    const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...extra });
    if (opts.stdout) opts.stdout(line);
    else if (level === "error" || level === "warn") console.error(line);
    else console.log(line);
    opts.sink?.write(line);
  };
}
export type Logger = ReturnType<typeof createLogger>;

/** How often one kind of repeating trouble (a database or Redis outage, refused device sockets) is logged at most. */
export const REPEAT_LOG_INTERVAL_MS = 10_000;

type Throttle = { last: number; suppressed: number };
const throttles = new WeakMap<object, Map<string, Throttle>>();

/**
 * A log for something that repeats while it lasts (an outage, refused connections): the first line is written at once,
 * then at most one line per `key` every `intervalMs`; a line carries `suppressed`, how many were held back since the
 * last one. The budget belongs to the logger, so every part of a process that logs one kind of trouble through the
 * same logger (the bus, presence and the job queues for Redis; the pages and the APIs for the database) shares one:
 * a 5 s Redis outage writes one line per process, not one per connection and retry.
 */
export function throttledLog<Lv extends string>(
  log: (level: Lv, msg: string, extra?: Record<string, unknown>) => void,
  key: string,
  intervalMs = REPEAT_LOG_INTERVAL_MS,
  now: () => number = Date.now,
): (level: Lv, msg: string, extra?: Record<string, unknown>) => void {
  let byKey = throttles.get(log);
  if (!byKey) throttles.set(log, (byKey = new Map()));
  const state = byKey.get(key) ?? { last: -Infinity, suppressed: 0 };
  byKey.set(key, state);
  return (level, msg, extra) => {
    const t = now();
    if (t - state.last < intervalMs) {
      state.suppressed++;
      return;
    }
    state.last = t;
    const suppressed = state.suppressed;
    state.suppressed = 0;
    log(level, msg, suppressed ? { ...extra, suppressed } : extra);
  };
}
