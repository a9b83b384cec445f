import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "./log";
import { createLogFileSink, listLogFiles, logFilePath } from "./log-files.server";

const fresh = () => mkdtempSync(path.join(tmpdir(), "kids-portal-logs-"));

describe("server log files (DATA_DIR/logs)", () => {
  it("the logger writes every JSON line to today's file of this process as well as stdout", async () => {
    const dir = fresh();
    const sink = createLogFileSink({ dir, processName: "web-123", now: () => new Date("2026-11-23T10:00:00Z") });
    const lines: string[] = [];
    const log = createLogger("info", { sink, stdout: (l) => lines.push(l) });
    log("info", "hello", { a: 1 });
    log("debug", "hidden");
    log("warn", "careful");
    await sink.close();
    const text = readFileSync(path.join(dir, "2026-11-23-web-123.log"), "utf8");
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { msg: string }).msg),
    ).toEqual(["hello", "careful"]);
    expect(lines).toHaveLength(2);
  });

  it("one file per process and day: two processes never share a file; a new day starts a new file", async () => {
    const dir = fresh();
    let now = new Date("2026-11-23T23:59:59Z");
    const web = createLogFileSink({ dir, processName: "web-1", now: () => now });
    const worker = createLogFileSink({ dir, processName: "worker-2", now: () => now });
    web.write('{"msg":"a"}');
    worker.write('{"msg":"b"}');
    now = new Date("2026-11-24T00:00:01Z");
    web.write('{"msg":"c"}');
    await Promise.all([web.close(), worker.close()]);
    expect(readdirSync(dir).sort()).toEqual(["2026-11-23-web-1.log", "2026-11-23-worker-2.log", "2026-11-24-web-1.log"]);
    expect(readFileSync(path.join(dir, "2026-11-24-web-1.log"), "utf8")).toBe('{"msg":"c"}\n');
  });

  it("a file stops growing at its cap, with one line saying so", async () => {
    const dir = fresh();
    const sink = createLogFileSink({ dir, processName: "web-1", maxBytesPerFile: 100, now: () => new Date("2026-11-23T10:00:00Z") });
    for (let i = 0; i < 50; i++) sink.write(JSON.stringify({ msg: `line ${i}` }));
    await sink.close();
    const text = readFileSync(path.join(dir, "2026-11-23-web-1.log"), "utf8");
    const lines = text.trim().split("\n");
    expect(lines.at(-1)).toContain("size cap");
    expect(Buffer.byteLength(text) - Buffer.byteLength(`${lines.at(-1)}\n`)).toBeLessThanOrEqual(100);
  });

  it("files older than the kept days are pruned; other files are left alone", async () => {
    const dir = fresh();
    for (const f of ["2026-11-01-web-9.log", "2026-11-10-web-9.log", "2026-11-09-worker-9.log", "notes.txt"])
      writeFileSync(path.join(dir, f), "x\n");
    const sink = createLogFileSink({ dir, processName: "web-1", keepDays: 14, now: () => new Date("2026-11-23T10:00:00Z") });
    sink.write("{}");
    await sink.close();
    expect(readdirSync(dir).sort()).toEqual(["2026-11-10-web-9.log", "2026-11-23-web-1.log", "notes.txt"]);
    expect((await listLogFiles(dir)).map((f) => f.name)).toEqual(["2026-11-23-web-1.log", "2026-11-10-web-9.log"]);
  });

  it.each([
    "../../etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "/etc/passwd",
    "2026-11-23-web-1.log/../../x",
    "2026-11-23-web-1.log\u0000",
    ".hidden.log",
    "2026-11-23-WEB.log",
    "notes.txt",
    "",
    "2026-11-23-web-1.LOG",
  ])("%j is not a log file name", (name) => expect(logFilePath("/data/logs", name)).toBeNull());

  it("a valid name resolves inside the directory", () => {
    expect(logFilePath("/data/logs", "2026-11-23-web-123.log")).toBe(path.resolve("/data/logs/2026-11-23-web-123.log"));
  });
});
