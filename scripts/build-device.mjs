// The device service as plain JavaScript (build/server/device.js), for running it as its own processes:
//
//   npm run build                                   # the web app, then this
//   DEVICE_PROCESSES=4 node build/server/device.js
//
// Why: a device process started under tsx spent ~2 s loading its modules through the loader thread, and four of
// them starting together on two cores took 8 s — the largest part of the fleet's way back after kill -9 of all
// (issue 22; decision 005). The bundle starts in ~0.9 s. The packages are in
// the bundle too (one process alone: 1.0 s to listening instead of 1.4 s — Node's loader resolved and parsed ~1,000
// files of node_modules), except those in EXTERNAL, which stay in node_modules: native addons, and packages that read
// files beside their own code at run time. Code loaded on first use (report charts) stays a chunk of its own, so
// it is still not loaded at start-up. `npx tsx server/device.ts` runs the same code from the sources.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Packages left in node_modules: native addons (better-sqlite3, resvg, sharp, argon2, msgpackr's optional extractor, pg's
 * optional binding), packages that find files beside their code at run time (Bull Board's pages, BullMQ's
 * package.json), and what only the charts chunk uses (react, nivo: loaded on first use anyway).
 */
export const EXTERNAL = [
  "better-sqlite3",
  "@resvg/resvg-js",
  "sharp",
  "@node-rs/argon2",
  "msgpackr-extract",
  "pg-native",
  "@bull-board/*",
  "bullmq",
  "react",
  "react-dom",
  "react-dom/*",
  "@nivo/*",
];

/** Bundled CommonJS packages call require(), and some read __dirname: an ES module has neither. */
const BANNER = [
  'import { createRequire as __bundleRequire } from "node:module";',
  'import { fileURLToPath as __bundlePath } from "node:url";',
  'import { dirname as __bundleDir } from "node:path";',
  "const require = __bundleRequire(import.meta.url);",
  "const __filename = __bundlePath(import.meta.url);",
  "const __dirname = __bundleDir(__filename);",
].join(" ");

/**
 * Bundles one entry (a path from the repository's root) into `outdir` (emptied first; inside the repository, so
 * node_modules and the package's "type": "module" apply); returns the entry's output file.
 */
export async function bundleEntry(entry, outdir) {
  const out = path.resolve(root, outdir);
  // Chunks are named by content: the last build's would pile up beside this one's.
  rmSync(out, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outdir: out,
    outbase: path.dirname(path.resolve(root, entry)),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    banner: { js: BANNER },
    sourcemap: true,
    logLevel: "warning",
  });
  return path.join(out, `${path.basename(entry, path.extname(entry))}.js`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = await bundleEntry("server/device.ts", "build/server");
  console.log(`device service built: ${path.relative(root, file)}`);
}
