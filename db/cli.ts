import { env } from "../core/env.server";
import { createDb, migrateToLatest } from "./index";
import { seedBig, seedIfEmpty } from "./seed/index";

const [command, ...args] = process.argv.slice(2);
const e = env();
const db = createDb({ url: e.databaseKind === "postgres" ? e.DATABASE_URL : e.sqlitePath });
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database is up to date.");
  if (command === "seed") {
    if (args.includes("--big")) {
      const login = await seedBig(db);
      console.log(`Benchmark family ready: ${login.email} / ${login.password}`);
    } else {
      const login = await seedIfEmpty(db);
      console.log(login ? `Demo family seeded: ${login.email} / ${login.password}` : "Database already has parents; nothing seeded.");
    }
  } else if (command !== "migrate") {
    console.error("usage: tsx db/cli.ts migrate | seed [--big]");
    process.exitCode = 2;
  }
} finally {
  await db.destroy();
}
