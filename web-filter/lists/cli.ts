/**
 * `npm run web-filter:import -- --category <id> [--source <name>] [--replace] <file|url>…`: loads large public block
 * lists (hosts files, AdBlock-style `||domain^` lists, plain domain lists) into one category of the web filter.
 * Progress lines while it reads, then a summary. Rerunning adds nothing new; `--replace` first removes what the
 * same source listed in that category. Exit 2 on a usage error, 1 when an input cannot be read.
 */
import { parseArgs } from "node:util";
import path from "node:path";
import { env } from "../../core/env.server";
import { createDb, migrateToLatest } from "../../db/index";
import { listWebFilterCategories } from "../../db/queries/web-filter/categories";
import { CURATED_SOURCE } from "./curated";
import { syncCuratedLists } from "./curated-sync";
import { importLists, type ImportProgress, type ImportSummary } from "./import";

const USAGE = `Usage: npm run web-filter:import -- --category <id> [--source <name>] [--replace] <file|url>…

Reads hosts files (0.0.0.0 domain), AdBlock-style lists (||domain^) and plain domain lists into one category.

  --category <id>   the category to list the domains in (e.g. adult, gambling, social-networks)
  --source <name>   where the domains come from (default: the first input's file name)
  --replace         remove the domains this source listed in the category before reading
  -h, --help        this text`;

const n = (x: number) => x.toLocaleString("en-US");

/** A usage error found once the database is open (an unknown category): main's catch answers exit 2. */
class UsageError extends Error {}

function usageError(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        category: { type: "string" },
        source: { type: "string" },
        replace: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return usageError(err instanceof Error ? err.message : String(err));
  }
}

function progressLine(p: ImportProgress): string {
  const share = p.size ? ` (${Math.min(100, Math.floor((p.bytes / p.size) * 100))} %)` : "";
  return `${p.input}: ${n(p.lines)} lines${share}`;
}

function summaryLines(s: ImportSummary, seconds: string): string[] {
  const skipped = Object.entries(s.skipped).sort(([, a], [, b]) => b - a);
  const total = skipped.reduce((sum, [, c]) => sum + c, 0);
  return [
    `Read ${n(s.lines)} lines in ${seconds} s.`,
    ...(s.removed ? [`  removed first:          ${n(s.removed)}`] : []),
    `  domains found:          ${n(s.domains)}`,
    `  added:                  ${n(s.added)}`,
    `  already listed:         ${n(s.alreadyListed)}`,
    `  duplicates in input:    ${n(s.duplicates)}`,
    `  skipped:                ${n(total)}`,
    ...skipped.map(([reason, c]) => `    ${reason}: ${n(c)}`),
    `  comments/blank lines:   ${n(s.commentsOrBlank)}`,
  ];
}

async function main() {
  const { values, positionals } = parse();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.category) usageError("--category is required.");
  if (!positionals.length) usageError("Name at least one file or URL to read.");
  const source = values.source ?? path.basename(positionals[0]).replace(/\.[^.]*$/, "");
  if (!/^[\w.-]{1,64}$/.test(source)) usageError(`--source must be 1–64 letters, digits, ".", "_" or "-" (got "${source}").`);
  if (source === CURATED_SOURCE) usageError(`"${CURATED_SOURCE}" is the shipped list's source; name yours differently.`);

  const e = env();
  const db = createDb({ url: e.databaseKind === "postgres" ? e.DATABASE_URL : e.sqlitePath });
  try {
    await migrateToLatest(db);
    await syncCuratedLists(db);
    const categories = await listWebFilterCategories(db);
    if (!categories.some((c) => c.id === values.category))
      throw new UsageError(`Unknown category "${values.category}". Categories: ${categories.map((c) => c.id).join(", ")}.`);
    console.log(`Importing into ${values.category} (source ${source}${values.replace ? ", replacing its domains" : ""}).`);
    const started = Date.now();
    const summary = await importLists(db, {
      categoryId: values.category!,
      source,
      replace: values.replace ?? false,
      inputs: positionals,
      onProgress: (p) => console.log(progressLine(p)),
    });
    for (const line of summaryLines(summary, ((Date.now() - started) / 1000).toFixed(1))) console.log(line);
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) usageError(err.message);
  console.error(`The lists were not imported: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
