/**
 * `npm run reports:build -- --since 2026-01-01`: builds every missing report of the periods that closed since
 * that date (each kid's own frequency and time zone), for a new deployment or after a long stop. Back-filled
 * reports are not mailed. A progress bar on a terminal, progress lines otherwise, then a summary. Safe to
 * rerun or to interrupt: what is built stays, nothing is built twice.
 */
import { parseArgs } from "node:util";
import { env } from "../../core/env.server";
import { createDb, migrateToLatest } from "../../db/index";
import { buildDueReports } from "./build";
import { progressLine } from "./progress";

const USAGE =
  "Usage: npm run reports:build -- --since YYYY-MM-DD\n\nBuilds the missing weekly and monthly reports of every period that closed since that date.";

async function main() {
  const { values } = parseArgs({ options: { since: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const since = values.since ?? "";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(`${since}T00:00:00Z`))) {
    console.error(`--since needs a date like 2026-01-01.\n\n${USAGE}`);
    process.exit(2);
  }
  const e = env();
  const db = createDb({ url: e.databaseKind === "postgres" ? e.DATABASE_URL : e.sqlitePath });
  try {
    await migrateToLatest(db);
    const started = Date.now();
    const tty = Boolean(process.stdout.isTTY);
    let lastLine = 0;
    const summary = await buildDueReports(
      { db },
      {
        since,
        afterKid: (done, total, built) => {
          if (tty) process.stdout.write(`\r${progressLine(done, total, built, true)}`);
          else if (done === total || done - lastLine >= Math.max(1, Math.ceil(total / 10))) {
            lastLine = done;
            console.log(progressLine(done, total, built, false));
          }
        },
      },
    );
    if (tty && summary.kids) process.stdout.write("\n");
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Built ${summary.built} report${summary.built === 1 ? "" : "s"} for ${summary.kids} kid${summary.kids === 1 ? "" : "s"} since ${since}; ${summary.existing} already there. ${seconds} s.`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(`Reports were not built: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
