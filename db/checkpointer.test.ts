import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { startCheckpointer } from "./checkpointer";

/** WAL checkpoints on a worker thread (db/checkpointer.ts): commits on the serving thread no longer copy the log. */
describe("sqlite checkpointer", () => {
  const dirs: string[] = [];
  const open = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "checkpointer-"));
    dirs.push(dir);
    const db = new SQLite(path.join(dir, "db.sqlite"));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec("create table t (id integer primary key, body text not null)");
    return db;
  };
  /** ~2,400 pages of log: past SQLite's own 1,000-page checkpoint. */
  const write = (db: SQLite.Database) => {
    const ins = db.prepare("insert into t (body) values (?)");
    for (let i = 0; i < 40; i++)
      db.transaction(() => {
        for (let k = 0; k < 60; k++) ins.run("x".repeat(4000));
      })();
  };
  const walPages = (db: SQLite.Database) => statSync(`${db.name}-wal`).size / 4096;
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("without it, a commit past 1,000 pages of log checkpoints on the writer's thread (the log is reused, it stays small)", () => {
    const db = open();
    write(db);
    expect(walPages(db)).toBeLessThan(1_200);
    db.close();
  });

  it("with it, commits leave the log to the worker, which copies it into the database; nothing is lost", async () => {
    const db = open();
    const cp = startCheckpointer(db, { intervalMs: 60_000 });
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    write(db);
    expect(walPages(db)).toBeGreaterThan(2_000); // no commit checkpointed
    await cp.close(); // a last checkpoint before it stops
    expect(cp.stats().runs).toBe(1);
    expect(cp.stats().frames).toBeGreaterThan(2_000);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1_000);
    db.close();
    const again = new SQLite(path.join(path.dirname(db.name), "db.sqlite"), { readonly: true });
    expect((again.prepare("select count(*) as n from t").get() as { n: number }).n).toBe(2_400);
    again.close();
  });

  it("checkpoints every interval while the writer goes on", async () => {
    const db = open();
    const cp = startCheckpointer(db, { intervalMs: 20 });
    write(db);
    const deadline = Date.now() + 10_000;
    while (cp.stats().frames === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(cp.stats().runs).toBeGreaterThan(0);
    expect(cp.stats().frames).toBeGreaterThan(0);
    await cp.close();
    db.close();
  });
});
