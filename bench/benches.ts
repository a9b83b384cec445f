/** The benches `npm run bench:all` runs (bench/all.ts), with their default and smoke sizes. */
export const BENCHES: { name: string; script: string; args: string[]; smoke: string[] }[] = [
  {
    name: "device-fleet",
    script: "bench/device-fleet.ts",
    args: ["--phones", "50000", "--processes", "4"],
    smoke: ["--phones", "60", "--processes", "2", "--rtt", "5"],
  },
  { name: "ingest", script: "bench/ingest.ts", args: [], smoke: ["--smoke"] },
  { name: "mixed-load", script: "bench/mixed-load.ts", args: [], smoke: ["--smoke"] },
  { name: "kids-device", script: "bench/kids-device.ts", args: [], smoke: ["--smoke"] },
  { name: "catalog-search", script: "bench/catalog-search.ts", args: [], smoke: ["--smoke"] },
  { name: "apps-pages", script: "bench/apps-pages.ts", args: [], smoke: ["--smoke"] },
  { name: "reports", script: "bench/reports.ts", args: [], smoke: ["--smoke"] },
  { name: "web-filter-lists", script: "bench/web-filter-lists.ts", args: [], smoke: ["--smoke"] },
  { name: "web-filter", script: "bench/web-filter.ts", args: [], smoke: ["--smoke"] },
  { name: "api", script: "bench/api.ts", args: [], smoke: ["--smoke"] },
  { name: "places", script: "bench/places.ts", args: [], smoke: ["--smoke"] },
];
