/**
 * Where the CPU goes during a bench (Linux /proc): user + system CPU seconds of named groups of processes,
 * so a run can say how much of the machine's cores the web tier, the device processes, PostgreSQL (the
 * backends of the bench's own database), Redis and the phones' clients each used. Elsewhere than Linux
 * every figure is NaN.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Fields of /proc/<pid>/stat after the command name (which may contain spaces): [state, ppid, pgrp, …]. */
function statFields(pid: number): string[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    return s.slice(s.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/**
 * CPU seconds (user + system) a process has used so far, its own only; 0 when it is gone. (Its ended children's
 * time, which Linux adds to the parent's when it reaps them, is left out: a PostgreSQL backend that lived through a
 * whole run and ended during a meter's interval added its whole life to the postmaster's — kill -9 of a device
 * process closes a pool's worth — and PostgreSQL showed 1.9–2.7 cores on a 2-core machine.)
 */
export function cpuSecondsOf(pid: number): number {
  const f = statFields(pid);
  // utime and stime are fields 14–15 of stat, i.e. 11–12 after the name.
  return f ? (Number(f[11]) + Number(f[12])) / clockTicks() : 0;
}

/** Every process of a process group (a cluster primary started detached, and its workers). */
export function processGroup(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  return entries.filter((e) => /^\d+$/.test(e) && statFields(Number(e))?.[2] === String(pgid)).map(Number);
}

/** Processes by command name (e.g. every redis-server); shared with anything else running on the machine. */
export function processesNamed(name: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  return entries
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/comm`, "utf8").trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * A CPU meter over groups of processes: `start()` then `stop()` gives each group's CPU seconds in between
 * as a share of one core (1.0 = one core busy all the time). Groups are re-listed every `everyMs` (default 250 ms):
 * a process that starts in between is counted from its start, one that ends from its first sample to its last
 * (at most `everyMs` of its time is missed).
 */
export function cpuMeter(groups: Record<string, () => number[]>, everyMs = 250) {
  let at = 0;
  let first: Record<string, Map<number, number>> = {};
  let last: Record<string, Map<number, number>> = {};
  let timer: NodeJS.Timeout | undefined;
  const sample = (initial: boolean) => {
    for (const [k, list] of Object.entries(groups)) {
      const f = (first[k] ??= new Map());
      const l = (last[k] ??= new Map());
      for (const pid of list()) {
        const cpu = cpuSecondsOf(pid);
        if (!f.has(pid)) f.set(pid, initial ? cpu : 0);
        if (cpu > 0) l.set(pid, cpu);
      }
    }
  };
  return {
    start() {
      if (process.platform !== "linux") return;
      at = performance.now();
      first = {};
      last = {};
      sample(true);
      timer = setInterval(() => sample(false), everyMs);
      timer.unref();
    },
    /** Cores used by each group since start(). */
    stop(): Record<string, number> {
      if (process.platform !== "linux") return Object.fromEntries(Object.keys(groups).map((k) => [k, Number.NaN]));
      clearInterval(timer);
      sample(false);
      const seconds = (performance.now() - at) / 1000;
      return Object.fromEntries(
        Object.keys(groups).map((k) => {
          let used = 0;
          for (const [pid, cpu] of last[k] ?? []) used += cpu - (first[k]?.get(pid) ?? 0);
          return [k, used / seconds];
        }),
      );
    },
  };
}

/**
 * Waits until these processes are idle — under `floor` cores over a second (default 5 % of a core), at most `maxMs`
 * — and returns how long that took. The fleet bench measures memory and round trips on an idle fleet this way, not
 * while the service still sets up the phones that just connected.
 */
export async function waitIdle(pids: number[], maxMs = 60_000, floor = 0.05): Promise<number> {
  const t0 = performance.now();
  const cpu = () => pids.reduce((a, p) => a + cpuSecondsOf(p), 0);
  for (let before = cpu(); performance.now() - t0 < maxMs; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpu();
    if (now - before < floor) break;
    before = now;
  }
  return performance.now() - t0;
}

/**
 * The machine's CPU time stolen by its hypervisor (the `steal` column of /proc/stat), in cores, from now until the
 * returned function is called: on a shared virtual machine the same run can be 1.5× slower from one hour to the next.
 */
export function stealMeter(): () => number {
  const read = () => {
    try {
      const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
      return Number(cpu[8]) / clockTicks();
    } catch {
      return Number.NaN;
    }
  };
  const t0 = performance.now();
  const s0 = read();
  return () => (read() - s0) / ((performance.now() - t0) / 1000);
}

/** Where the cores go while phones come back: device processes, PostgreSQL, Redis, the phones' clients, steal (stderr). */
export function stormMeter(serverGroup: number, clientPids: number[]): () => string {
  const m = cpuMeter({
    device: () => processGroup(serverGroup),
    postgres: () => processesNamed("postgres"),
    redis: () => processesNamed("redis-server"),
    clients: () => clientPids,
  });
  const steal = stealMeter();
  m.start();
  return () =>
    [...Object.entries(m.stop()), ["stolen by the hypervisor", steal()] as const].map(([k, v]) => `${k} ${v.toFixed(2)}`).join(" · ");
}
