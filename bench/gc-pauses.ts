/**
 * The bench's own garbage-collection pauses while it times something (bench/device-fleet.ts's round trips): a
 * timed span that overlaps a pause of the measuring process carries part of the measurer's cost, not the product's.
 * `perf_hooks` reports each collection with its start on the same clock as `performance.now()`.
 */
import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";

export interface Span {
  start: number;
  end: number;
}

/** Starts recording this process's GC pauses; `stop()` ends it and returns them (start, end in performance.now() ms). */
export function watchGcPauses(): { stop: () => Span[] } {
  const pauses: Span[] = [];
  const add = (entries: PerformanceEntry[]) => {
    for (const e of entries) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop: () => {
      // Entries still buffered are delivered by takeRecords before the observer goes.
      add(observer.takeRecords());
      observer.disconnect();
      return pauses;
    },
  };
}

/** The spans that overlap none of the pauses, and how many did overlap one. */
export function apartFromPauses(spans: Span[], pauses: Span[]): { clear: Span[]; overlapped: number } {
  const clear = spans.filter((s) => !pauses.some((p) => p.start < s.end && p.end > s.start));
  return { clear, overlapped: spans.length - clear.length };
}
