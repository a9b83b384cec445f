/**
 * Every phase of a bench has a deadline (issue 22 item 2): a phase that does not finish in time fails the run
 * with its name, and every child process the bench started is killed (with its process group, so cluster
 * workers go too). Nothing is left running, nothing hangs.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export class PhaseTimeout extends Error {
  constructor(
    readonly phase: string,
    readonly ms: number,
  ) {
    super(`phase "${phase}" did not finish within ${ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`}`);
  }
}

/** The child processes a bench started; `killAll` ends them and their groups. */
export class Children {
  private readonly procs = new Set<ChildProcess>();
  add<T extends ChildProcess>(p: T, group = false): T {
    this.procs.add(p);
    if (group) (p as ChildProcess & { group?: boolean }).group = true;
    p.once("exit", () => this.procs.delete(p));
    return p;
  }
  /** SIGKILLs every child still running (and its process group when it leads one); returns their pids. */
  killAll(): number[] {
    const pids: number[] = [];
    for (const p of this.procs) {
      if (p.pid === undefined || p.exitCode !== null || p.signalCode !== null) continue;
      pids.push(p.pid);
      try {
        if ((p as ChildProcess & { group?: boolean }).group) process.kill(-p.pid, "SIGKILL");
        else p.kill("SIGKILL");
      } catch {
        p.kill("SIGKILL");
      }
    }
    return pids;
  }
}

/** Runs one phase against its deadline. */
export async function phase<T>(name: string, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PhaseTimeout(name, ms)), ms);
  });
  try {
    return await Promise.race([run(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `--deadline connect=30 --deadline rtt=5` → {connect: 30000, rtt: 5000} (seconds on the command line). */
export function parseDeadlines(values: string[] | undefined, known: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values ?? []) {
    const m = /^([a-z-]+)=(\d+(?:\.\d+)?)$/.exec(v);
    if (!m || !known.includes(m[1]))
      throw new Error(`--deadline takes <phase>=<seconds> with a phase among: ${known.join(", ")} (got '${v}')`);
    out[m[1]] = Number(m[2]) * 1000;
  }
  return out;
}

/** Sends a request to a bench child (IPC) and resolves with its first answer carrying `key`; rejects if it exits first. */
export function ask<T>(proc: ChildProcess, msg: object | null, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, sig: string | null) =>
      reject(new Error(`a bench child exited (${sig ?? `exit ${code}`}) while waiting for '${key}'`));
    const on = (r: Record<string, unknown>) => {
      if (key in r) {
        proc.off("message", on);
        proc.off("exit", onExit);
        resolve(r as T);
      }
    };
    proc.on("message", on);
    proc.once("exit", onExit);
    if (msg) proc.send(msg);
  });
}

export { freePort } from "../core/ports.server";

/** The web tier's build (build/index.js), or a plain message saying how to make it; null when it is there. */
export function missingBuild(root = process.cwd()): string | null {
  return existsSync(path.join(root, "build", "index.js"))
    ? null
    : "The web build is missing (build/index.js): run `npx remix build` first, then the bench again.\n";
}
