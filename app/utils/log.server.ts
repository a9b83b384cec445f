type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One-line JSON logs. Never pass passwords, tokens or card data in `extra`. */
export function createLogger(minLevel: Level = "info") {
  return (level: Level, msg: string, extra?: Record<string, unknown>) => {
    if (order[level] < order[minLevel]) return;
    const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...extra });
    if (level === "error" || level === "warn") console.error(line);
    else console.log(line);
  };
}
export type Logger = ReturnType<typeof createLogger>;
