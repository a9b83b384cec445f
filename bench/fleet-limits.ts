/**
 * The fleet bench's limits, checked before anything starts (issue 22 item 2): open files per process (soft
 * and hard), the ephemeral port range per source address, free file handles system-wide, memory, and the
 * loopback source addresses. planFleet() is pure (table-tested); probeLimits() reads this machine.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";

/** Open files a process needs beside its phones: runtime, database pool, Redis, pipes, listeners. */
export const FD_MARGIN = 256;
/** Phones per client process at most (CPU, not only files: one event loop drives them all). */
export const PHONES_PER_CLIENT = 15_000;
/** Share of the ephemeral range one source address may use (the rest is headroom for TIME_WAIT). */
export const PORT_SHARE = 0.45;
/** Estimated memory per phone, server and client side together (measured ≈ 5 KiB + ≈ 9 KiB), with headroom. */
export const BYTES_PER_PHONE = 24 * 1024;
/**
 * Phones per source address at most. Each phone binds its source address before connecting, and the kernel looks
 * for a free port by walking the ports already bound on that address: with 10,000 phones an address, a reconnect
 * storm of 20,000 took 2–4× the clients' CPU of the same storm over 20 addresses (28.5 s against 12.8 s back,
 * bare `ws` servers, 2 × AMD EPYC vCPU). Real phones each have an address of their own.
 */
export const PHONES_PER_ADDRESS = 1_000;
/** Source addresses the clients may use: 127.0.0.2 … (all of 127.0.0.0/8 is loopback on Linux). */
export const sourceAddress = (k: number) => `127.0.0.${2 + k}`;

export interface Limits {
  nofileSoft: number;
  nofileHard: number;
  /** Local (ephemeral) port range, inclusive. */
  portRange: [number, number];
  /** System-wide file handles still free (fs.file-max − allocated). */
  filesFree: number;
  memFreeBytes: number;
}

export interface FleetRequest {
  phones: number;
  serverProcesses: number;
  /** null: as many as the limits need. */
  clientProcesses: number | null;
}

export interface FleetPlan {
  phones: number;
  serverProcesses: number;
  clientProcesses: number;
  sourceAddresses: string[];
  /** Open files the busiest server and client process need. */
  serverFiles: number;
  clientFiles: number;
}

const ceil = Math.ceil;

/** The plan, or every limit that is short with what to do about it. */
export function planFleet(req: FleetRequest, l: Limits): { plan: FleetPlan; problems: string[] } {
  const problems: string[] = [];
  const perFile = Math.max(1, l.nofileHard - FD_MARGIN);
  const neededClients = Math.max(1, ceil(req.phones / Math.min(perFile, PHONES_PER_CLIENT)));
  const clientProcesses = req.clientProcesses ?? neededClients;
  const serverFiles = ceil(req.phones / req.serverProcesses) + FD_MARGIN;
  const clientFiles = ceil(req.phones / clientProcesses) + FD_MARGIN;
  if (serverFiles > l.nofileHard) {
    problems.push(
      `open files: each device-service process would hold ${serverFiles} files (${req.phones} phones over ${req.serverProcesses} processes), above the hard limit of ${l.nofileHard} per process; use --processes ${ceil(req.phones / perFile)} or more`,
    );
  }
  if (clientFiles > l.nofileHard) {
    problems.push(
      `open files: each client process would hold ${clientFiles} files (${req.phones} phones over ${clientProcesses} client processes), above the hard limit of ${l.nofileHard}; use --client-processes ${neededClients} or leave it out`,
    );
  }
  const range = l.portRange[1] - l.portRange[0] + 1;
  const perAddress = Math.floor(range * PORT_SHARE);
  const addresses = perAddress > 0 ? ceil(req.phones / Math.min(perAddress, PHONES_PER_ADDRESS)) : Infinity;
  if (!Number.isFinite(addresses) || addresses > 250)
    problems.push(`ephemeral ports: the local port range ${l.portRange[0]}–${l.portRange[1]} is too small for ${req.phones} phones`);
  // Phones and the service's side of each connection, plus margins for every process.
  const files = 2 * req.phones + FD_MARGIN * (req.serverProcesses + clientProcesses + 2);
  if (files > l.filesFree) problems.push(`system file handles: the run needs about ${files}, only ${l.filesFree} are free (fs.file-max)`);
  const mem = req.phones * BYTES_PER_PHONE + 300 * 1024 * 1024 * (req.serverProcesses + clientProcesses);
  if (mem > l.memFreeBytes)
    problems.push(
      `memory: the run needs about ${Math.round(mem / 2 ** 20)} MiB, only ${Math.round(l.memFreeBytes / 2 ** 20)} MiB are free`,
    );
  const n = Number.isFinite(addresses) ? Math.min(addresses, 250) : 1;
  return {
    plan: {
      phones: req.phones,
      serverProcesses: req.serverProcesses,
      clientProcesses,
      sourceAddresses: Array.from({ length: n }, (_, k) => sourceAddress(k)),
      serverFiles,
      clientFiles,
    },
    problems,
  };
}

/** This machine's limits (the hard open-files limit is what child processes can raise their soft limit to). */
export function probeLimits(): Limits {
  const [soft, hard] = execFileSync("sh", ["-c", "ulimit -Sn; ulimit -Hn"], { encoding: "utf8" })
    .trim()
    .split(/\s+/)
    .map((x) => (x === "unlimited" ? Number.MAX_SAFE_INTEGER : Number(x)));
  const read = (f: string, fallback: string) => {
    try {
      return readFileSync(f, "utf8");
    } catch {
      return fallback;
    }
  };
  const [lo, hi] = read("/proc/sys/net/ipv4/ip_local_port_range", "32768 60999").trim().split(/\s+/).map(Number);
  const [allocated, , max] = read("/proc/sys/fs/file-nr", `0 0 ${Number.MAX_SAFE_INTEGER}`).trim().split(/\s+/).map(Number);
  const avail = /MemAvailable:\s+(\d+) kB/.exec(read("/proc/meminfo", ""));
  return {
    nofileSoft: soft,
    nofileHard: hard,
    portRange: [lo, hi],
    filesFree: max - allocated,
    memFreeBytes: avail ? Number(avail[1]) * 1024 : os.freemem(),
  };
}

/** The source addresses that cannot be bound here (each is tried once). */
export async function unusableAddresses(addresses: string[]): Promise<string[]> {
  const bad: string[] = [];
  for (const a of addresses) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once("error", () => resolve(false));
      s.listen(0, a, () => s.close(() => resolve(true)));
    });
    if (!ok) bad.push(a);
  }
  return bad;
}
