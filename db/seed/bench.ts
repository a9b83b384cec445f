import { hash } from "@node-rs/argon2";
import { dbDialect, type DB } from "../index";
import { newId, nowIso } from "../../core/ids.server";
import { type CatalogAppSeed } from "./catalog";
import { CATALOG_APPS } from "./catalog-all";
import { seedBigExtras } from "./big-extras";
import { ARGON, seedFamily, type KidSeed } from "./family";
import { seedCatalog } from "./seed-catalog";

export const BENCH_LOGIN = { email: "bench@kids-portal.test", password: "bench-parent-2026" } as const;

/** The benchmark data set: 5 kids × 80 apps × 365 days of hourly usage, pending requests and schedules (big-extras.ts). */
export async function seedBig(db: DB, now: Date = new Date(), log: (m: string) => void = console.log): Promise<typeof BENCH_LOGIN> {
  const extra: CatalogAppSeed[] = Array.from({ length: 40 }, (_, i) => ({
    ...CATALOG_APPS[i % CATALOG_APPS.length],
    package_name: `com.bench.app${String(i).padStart(2, "0")}`,
    title: `Bench App ${i}`,
    is_system_app: false,
  }));
  await seedCatalog(db, extra);
  const existing = await db.selectFrom("parents").select("id").where("email", "=", BENCH_LOGIN.email).executeTakeFirst();
  if (existing) {
    log(`bench family already present${(await seedBigExtras(db, existing.id, now)) ? "; its requests and schedules added" : ""}`);
    return BENCH_LOGIN;
  }
  const ts = nowIso(now);
  const parentId = newId();
  await db
    .insertInto("parents")
    .values({
      id: parentId,
      email: BENCH_LOGIN.email,
      name: "Bench Parent",
      password_hash: await hash(BENCH_LOGIN.password, ARGON),
      role: "parent",
      email_verified_at: ts,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  const kids: KidSeed[] = Array.from({ length: 5 }, (_, i) => ({
    name: `Bench Kid ${i + 1}`,
    birthMonth: 1 + i,
    birthYear: 2012 + i,
    serial: `BENCH-${i + 1}-${parentId.slice(0, 6)}`,
    brand: "Google",
    model: "Pixel 8a",
    battery: 50 + i * 10,
    healthy: true,
    location: [51.5 + i / 100, -0.12],
  }));
  const started = Date.now();
  await seedFamily(db, {
    parentId,
    kids,
    apps: [...CATALOG_APPS, ...extra],
    appsPerKid: 80,
    days: 365,
    hoursPerAppDay: 3,
    seed: 7,
    now,
    notificationsPerKid: 100,
  });
  await seedBigExtras(db, parentId, now);
  log(`bench family seeded in ${((Date.now() - started) / 1000).toFixed(1)} s (${dbDialect(db)})`);
  return BENCH_LOGIN;
}
