import { chmodSync, createWriteStream, mkdirSync, readdirSync, statSync, unlinkSync, type WriteStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

/**
 * The server's JSON log lines also go to daily files under DATA_DIR/logs, one file per process and day
 * (`2026-11-23-web-4242.log`), so several processes never interleave. Each file stops at a size cap (one line
 * says so); files older than the kept days are pruned when a file is opened. Operators read them at
 * /server-logs (app/routes/_app.server-logs.tsx, kids.$file.tsx). The folder is the service user's only (0700), each
 * file too (0600): the lines name parents, phones and addresses.
 */

/** Bytes one process writes to one day's file at most. */
export const LOG_FILE_MAX_BYTES = 50 * 1024 * 1024;
/** Days of files kept (today included). */
export const LOG_FILE_KEEP_DAYS = 14;
/** What a log file is called: the day, then the process (lower-case letters, digits, dashes). Nothing else is served. */
export const LOG_FILE_NAME = /^(\d{4}-\d{2}-\d{2})-[a-z0-9][a-z0-9-]{0,62}\.log$/;

/** Where the files live: DATA_DIR/logs. */
export function serverLogDir(dataDir: string): string {
  return path.join(dataDir, "logs");
}

export interface LogFileOptions {
  dir: string;
  /** Lower-case letters, digits and dashes, e.g. `web-4242`. */
  processName: string;
  maxBytesPerFile?: number;
  keepDays?: number;
  now?: () => Date;
  /** Where a failure to write is reported (default console.error), once. */
  onError?: (err: Error) => void;
}

export interface LogFileSink {
  write(line: string): void;
  /** Resolves once everything written so far is on disk. */
  close(): Promise<void>;
}

export function createLogFileSink(o: LogFileOptions): LogFileSink {
  const processName =
    o.processName
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")
      .replace(/^-+/, "") || "process";
  const cap = o.maxBytesPerFile ?? LOG_FILE_MAX_BYTES;
  const keepDays = o.keepDays ?? LOG_FILE_KEEP_DAYS;
  const now = o.now ?? (() => new Date());
  let day = "";
  let stream: WriteStream | undefined;
  let written = 0;
  let capped = false;
  let failed = false;
  const closing: Promise<void>[] = [];

  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    (
      o.onError ??
      ((e: Error) =>
        console.error(
          JSON.stringify({
            t: new Date().toISOString(),
            level: "error",
            msg: "log file not writable; logging to stdout only",
            error: e.message,
          }),
        ))
    )(err);
  };

  const end = (s: WriteStream) => closing.push(new Promise<void>((resolve) => s.end(() => resolve())));

  const open = (today: string) => {
    if (stream) end(stream);
    stream = undefined;
    day = today;
    capped = false;
    try {
      mkdirSync(o.dir, { recursive: true, mode: 0o700 });
      tighten(o.dir, 0o700); // made by an older version with the umask's mode
      prune(o.dir, today, keepDays);
      const file = path.join(o.dir, `${today}-${processName}.log`);
      written = safeSize(file);
      const s = createWriteStream(file, { flags: "a", mode: 0o600 });
      s.on("error", fail);
      s.once("open", () => tighten(file, 0o600)); // `mode` applies to a new file only
      stream = s;
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  };

  // Today's file exists from the start, so /server-logs lists it even before the first line.
  open(now().toISOString().slice(0, 10));
  return {
    write(line) {
      if (failed) return;
      const today = now().toISOString().slice(0, 10);
      if (today !== day) open(today);
      if (!stream || capped) return;
      const bytes = Buffer.byteLength(line) + 1;
      if (written + bytes > cap) {
        capped = true;
        stream.write(
          `${JSON.stringify({ t: now().toISOString(), level: "warn", msg: `log file size cap reached (${cap} bytes): the rest of today's lines go to stdout only` })}\n`,
        );
        return;
      }
      written += bytes;
      stream.write(`${line}\n`);
    },
    async close() {
      if (stream) end(stream);
      stream = undefined;
      day = "";
      await Promise.all(closing);
    },
  };
}

function tighten(file: string, mode: number): void {
  try {
    chmodSync(file, mode);
  } catch {
    /* pruned meanwhile, or not this user's to change */
  }
}

function safeSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Deletes log files dated before the kept window; anything not named like a log file is left alone. */
function prune(dir: string, today: string, keepDays: number) {
  const oldest = new Date(Date.parse(`${today}T00:00:00Z`) - (keepDays - 1) * 86_400_000).toISOString().slice(0, 10);
  for (const name of readdirSync(dir)) {
    const m = LOG_FILE_NAME.exec(name);
    if (m && m[1]! < oldest) {
      try {
        unlinkSync(path.join(dir, name));
      } catch {
        /* another process pruned it first */
      }
    }
  }
}

/** The path of a log file by its name, or null when the name is not a log file's (no traversal, no other files). */
export function logFilePath(dir: string, name: string): string | null {
  if (!LOG_FILE_NAME.test(name)) return null;
  const root = path.resolve(dir);
  const file = path.resolve(root, name);
  return path.dirname(file) === root ? file : null;
}

export interface LogFileInfo {
  name: string;
  size: number;
  modified: string;
}

/** The log files, newest day first (then by name). */
export async function listLogFiles(dir: string): Promise<LogFileInfo[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const files: LogFileInfo[] = [];
  for (const name of names.filter((n) => LOG_FILE_NAME.test(n))) {
    try {
      const s = await stat(path.join(dir, name));
      if (s.isFile()) files.push({ name, size: s.size, modified: s.mtime.toISOString() });
    } catch {
      /* pruned meanwhile */
    }
  }
  return files.sort((a, b) => (a.name.slice(0, 10) === b.name.slice(0, 10) ? (a.name < b.name ? -1 : 1) : a.name < b.name ? 1 : -1));
}
