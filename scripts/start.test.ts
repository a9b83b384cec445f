import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIsStale, dependenciesAreStale } from "./ensure.mjs";
import { WEB_PROCESS_FLAGS } from "./node-flags.mjs";

// `npm start` as a person runs it, in a child process: a fresh DATA_DIR, an ephemeral port, the build present.
const ROOT = path.resolve(import.meta.dirname, "..");
const leftovers = new Set<number>();

afterEach(() => {
  // A failing run must not leave servers behind: stop whatever we started, by pid.
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, "SIGKILL");
  leftovers.clear();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every descendant of `pid` (children, grandchildren…), from ps. */
function descendants(pid: number): number[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of rows) {
      if (parent === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** A port free right now (the server binds it a moment later). */
async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

async function launch(
  command: string,
  args: string[],
): Promise<{ child: ChildProcess; url: Promise<string>; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  expect(dependenciesAreStale(), "node_modules is older than package-lock.json: run npm ci first").toBe(false);
  expect(buildIsStale(), "the build is missing or stale: run `npx remix build` first").toBe(false);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "kids-portal-start-test-")),
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SIMULATE_DEMO_DEVICES: "false",
    LOG_LEVEL: "error",
  };
  for (const k of ["DATABASE_URL", "REDIS_URL", "DEVICE_SERVICE_URL", "VITEST", "VITEST_WORKER_ID", "VITEST_POOL_ID"]) delete env[k];
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  leftovers.add(child.pid!);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    void exit.then(() => reject(new Error(`exited before the server started:\n${out}`)));
  });
  return { child, url, exit };
}

async function refused(url: string): Promise<boolean> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(port), "127.0.0.1");
    s.on("connect", () => {
      s.destroy();
      resolve(false);
    });
    s.on("error", () => resolve(true));
  });
}

/** The command lines (argv) of those of `pids` that run server.ts. */
function serverCommandLines(pids: number[]): string[][] {
  return pids
    .map((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").filter(Boolean);
      } catch {
        return [];
      }
    })
    .filter((argv) => argv.includes("server/web.ts"));
}

/** A process we are not the parent of cannot be awaited: poll until it is gone (or give up after 15 s). */
async function gone(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (pids.every((p) => !alive(p))) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  return pids.filter(alive);
}

describe("npm start (scripts/start.mjs)", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "passes %s on to the server, waits for its graceful shutdown and exits with its code",
    async (signal) => {
      const { child, url, exit } = await launch(process.execPath, ["scripts/start.mjs"]);
      const base = await url;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const family = descendants(child.pid!);
      expect(family.length).toBeGreaterThan(0);
      for (const p of family) leftovers.add(p);
      expect(serverCommandLines(family)).toEqual([expect.arrayContaining([...WEB_PROCESS_FLAGS, "server/web.ts"])]);
      child.kill(signal);
      // The server shuts down gracefully and exits 0; the start script exits with that code.
      expect(await exit).toEqual({ code: 0, signal: null });
      expect(await refused(base)).toBe(true);
      expect(await gone(family)).toEqual([]);
    },
    40_000,
  );

  it("`npm run serve` runs the same server (the web process's V8 flags included) without the checks", async () => {
    const { child, url, exit } = await launch("npm", ["run", "serve", "--silent"]);
    const base = await url;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const family = descendants(child.pid!);
    for (const p of family) leftovers.add(p);
    expect(serverCommandLines(family)).toEqual([expect.arrayContaining([...WEB_PROCESS_FLAGS, "server/web.ts"])]);
    child.kill("SIGTERM");
    await exit;
    expect(await gone(family)).toEqual([]);
  }, 40_000);

  it("leaves no orphan when `npm start` itself is stopped (npm → sh → start script → server)", async () => {
    const { child, url, exit } = await launch("npm", ["start", "--silent"]);
    const base = await url;
    const family = descendants(child.pid!);
    for (const p of family) leftovers.add(p);
    expect(family.length).toBeGreaterThanOrEqual(2);
    child.kill("SIGTERM");
    await exit;
    // npm does not wait, and its shell dies without passing the signal on: the start script must notice.
    expect(await gone(family)).toEqual([]);
    expect(await refused(base)).toBe(true);
  }, 40_000);
});
