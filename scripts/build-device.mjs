// The device service as plain JavaScript (build/device-service/server.js), for running it as its own processes:
//
//   npm run build                                   # the web app, then this
//   DEVICE_PROCESSES=4 node build/device-service/server.js
//
// Why: a device process started under tsx spent ~2 s loading its modules through the loader thread, and four of
// them starting together on two cores took 8 s — the largest part of the fleet's way back after kill -9 of all
// (issue 22; docs/performance.md, session 10). The bundle starts in ~0.9 s. Packages stay in node_modules
// (resolved from here as from the sources); code loaded on first use (report charts) stays a chunk of its own,
// so it is still not loaded at start-up. `npx tsx device-service/server.ts` runs the same code from the sources.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

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
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
  return path.join(out, `${path.basename(entry, path.extname(entry))}.js`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = await bundleEntry("device-service/server.ts", "build/device-service");
  console.log(`device service built: ${path.relative(root, file)}`);
}
