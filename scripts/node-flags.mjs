// V8's flags for the web process (server/web.ts), wherever it runs as the product does: `npm start` and `npm run serve`
// (scripts/start.mjs), the e2e server (playwright.config.ts) and the benches' server processes (bench/mixed-load.ts,
// bench/page-bench.ts). Node refuses them in NODE_OPTIONS, so they go on the command line. Decision 010 (docs/decisions/), measured under the mixed-load bench:
// - no memory reducer: a server between bursts is not a background tab; the reducer's back-to-back full
//   collections (5–86 ms pauses each on a slow machine) shrank the heap to its live size, so the next few MiB
//   promoted set off the next full collection;
// - the old generation may grow to twice what the last full collection kept before the next one (V8 otherwise
//   picks 1.1–4× by its own measure), so a web process collects its ~60 MiB old generation every few minutes,
//   not every minute.
export const WEB_PROCESS_FLAGS = ["--no-memory-reducer", "--heap-growing-percent=100"];
