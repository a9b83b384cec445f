import { describe, expect, it } from "vitest";
import { createLogger, REPEAT_LOG_INTERVAL_MS, throttledLog } from "./log";

describe("throttledLog: repeating trouble is one line per interval", () => {
  const setup = () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger("debug", { stdout: (l) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
    let t = 0;
    const clock = { now: () => t, advance: (ms: number) => (t += ms) };
    return { lines, log, clock };
  };

  it("the first line at once, then at most one per interval carrying how many were held back", () => {
    const { lines, log, clock } = setup();
    const redis = throttledLog(log, "redis", REPEAT_LOG_INTERVAL_MS, clock.now);
    for (let i = 0; i < 286; i++) {
      redis("warn", "redis lost", { try: i });
      clock.advance(17);
    }
    expect(lines.map((l) => [l.msg, l.try, l.suppressed])).toEqual([["redis lost", 0, undefined]]);
    clock.advance(REPEAT_LOG_INTERVAL_MS);
    redis("warn", "redis lost", { try: 286 });
    expect(lines[1]).toMatchObject({ msg: "redis lost", try: 286, suppressed: 285 });
  });

  it("every part of a process that logs one kind through one logger shares the budget; other kinds and loggers do not", () => {
    const { lines, log, clock } = setup();
    throttledLog(log, "redis", REPEAT_LOG_INTERVAL_MS, clock.now)("warn", "bus: redis lost");
    throttledLog(log, "redis", REPEAT_LOG_INTERVAL_MS, clock.now)("warn", "presence: redis lost");
    throttledLog(log, "database unavailable", REPEAT_LOG_INTERVAL_MS, clock.now)("warn", "database unavailable");
    const other = setup();
    throttledLog(other.log, "redis", REPEAT_LOG_INTERVAL_MS, clock.now)("warn", "another process: redis lost");
    expect(lines.map((l) => l.msg)).toEqual(["bus: redis lost", "database unavailable"]);
    expect(other.lines.map((l) => l.msg)).toEqual(["another process: redis lost"]);
  });
});
