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
