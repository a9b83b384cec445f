import { hash } from "@node-rs/argon2";
import type { DB } from "../index";
import { newId, nowIso } from "../../core/ids.server";
import { normalizeEmail } from "../queries/parents";
import { DEMO_CATALOG_APPS } from "./catalog-all";
import { seedDemoPayments } from "./payments";
import { seedDemoKidRatings } from "./ratings";
import { ARGON, seedFamily } from "./family";
import { seedCatalog } from "./seed-catalog";

export { prng } from "./family";
export { seedCatalog } from "./seed-catalog";
export { BENCH_LOGIN, seedBig } from "./bench";

export const DEMO_LOGIN = { email: "demo@kids-portal.test", password: "demo-parent-2026" } as const;
export const OPERATOR_LOGIN = { email: "operator@kids-portal.test", password: "operator-2026!" } as const;

/** Days of usage the demo family has (its reports are back-filled over them at start-up). */
export const DEMO_USAGE_DAYS = 30;

export async function seedDemo(db: DB, now: Date = new Date()): Promise<typeof DEMO_LOGIN> {
  await seedCatalog(db);
  const ts = nowIso(now);
  const parentId = newId();
  await db
    .insertInto("parents")
    .values([
      {
        id: parentId,
        email: normalizeEmail(DEMO_LOGIN.email),
        name: "Alex Morgan",
        password_hash: await hash(DEMO_LOGIN.password, ARGON),
        role: "parent",
        use_default_password: 1,
        email_verified_at: ts,
        created_at: ts,
        updated_at: ts,
      },
      {
        id: newId(),
        email: normalizeEmail(OPERATOR_LOGIN.email),
        name: "Portal Operator",
        password_hash: await hash(OPERATOR_LOGIN.password, ARGON),
        role: "operator",
        use_default_password: 0,
        email_verified_at: ts,
        created_at: ts,
        updated_at: ts,
      },
    ])
    .execute();
  await seedFamily(db, {
    parentId,
    kids: [
      {
        name: "Mia",
        birthMonth: 3,
        birthYear: 2014,
        serial: "DEMO-MIA-0001",
        brand: "Samsung",
        model: "Galaxy A15",
        battery: 76,
        healthy: true,
        location: [51.5014, -0.1419],
      },
      {
        name: "Leo",
        birthMonth: 8,
        birthYear: 2019,
        serial: "DEMO-LEO-0002",
        brand: "Lenovo",
        model: "Tab M8",
        battery: 15,
        healthy: false,
        location: [51.5079, -0.0877],
      },
    ],
    // Picked from the first hundred only, so the demo kids keep the same apps however the catalogue grows.
    apps: DEMO_CATALOG_APPS,
    appsPerKid: 24,
    days: DEMO_USAGE_DAYS,
    hoursPerAppDay: 2,
    seed: 42,
    now,
    notificationsPerKid: 26,
  });
  await seedDemoPayments(db, parentId, normalizeEmail(DEMO_LOGIN.email), now);
  await seedDemoKidRatings(db, parentId, now);
  return DEMO_LOGIN;
}

/** Seeds the demo family when the database has no parent yet. Returns the login when it seeded. */
export async function seedIfEmpty(db: DB): Promise<typeof DEMO_LOGIN | null> {
  const any = await db.selectFrom("parents").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  return seedDemo(db);
}
