import type { DemoTimers } from "./demo-activity";

/** Timers driven by hand: `advance(ms)` fires what falls due, in time order; `now()` is `base` plus the time advanced. */
export function fakeTimers(base = Date.UTC(2026, 10, 28, 12)) {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: DemoTimers = {
    set: (fn, ms) => {
      due.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clear: (h) => void due.delete(h as number),
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const next = [...due.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!next) break;
      due.delete(next[0]);
      now = next[1].at;
      next[1].fn();
    }
    now = until;
  };
  return { timers, advance, pending: () => due.size, now: () => new Date(base + now) };
}
