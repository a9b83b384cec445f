import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The one place that reads process.env. Every variable has a default that works on a fresh
 * machine (SQLite, in-process jobs, simulated phones); production sets the real ones.
 */
const bool = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? def : v === "true" || v === "1"));

/** The kids app's built-in key for development; refused in production. */
export const DEV_KIDS_APP_KEY = "dev-kids-app-key";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Proxy hops in front of the server whose X-Forwarded-For is trusted (0 = none: the socket address counts). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** The address parents open; every link in mail and every sign-in callback is built from it. Required in production. */
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//i.test(v), { message: "PUBLIC_URL must be an http:// or https:// address" })
    .optional(),
  DATA_DIR: z.string().default("data"),
  DATABASE_URL: z
    .string()
    .default("")
    .refine((v) => v === "" || v.startsWith("postgres://") || v.startsWith("postgresql://") || v.startsWith("file:"), {
      message: "DATABASE_URL must be empty (SQLite under DATA_DIR), file:<path> or postgres://…",
    }),
  /** Repeated PostgreSQL queries as named statements (db/pg-statements.ts); false behind a PgBouncer < 1.21 in transaction mode. */
  PG_NAMED_STATEMENTS: bool(true),
  SESSION_SECRET: z.string().min(32).optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 60),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().int().positive().default(7),
  SECURE_COOKIES: bool(false),
  REDIS_URL: z.string().default(""),
  DEVICE_SERVICE_URL: z.string().default(""),
  DEVICE_SERVICE_KEY: z.string().default(""),
  /** `npx tsx server/device.ts` as N processes behind one port (Node's cluster; decision 005). Needs REDIS_URL above 1. */
  DEVICE_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Who hands out connections to the device processes: the kernel ("none", its accept queue bounds the wait), or the
   * primary, in turn ("rr", an even spread; its queue has no bound). Decision 005.
   */
  DEVICE_CLUSTER_SCHEDULING: z.enum(["rr", "none"]).default("none"),
  /** Connections at which a device process stops accepting (default: its open-file limit − 512). */
  DEVICE_MAX_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  SIMULATE_DEMO_DEVICES: bool(true),
  /** How long the simulated demo phones take to carry out a command (a real phone wakes up first). */
  SIMULATOR_ACK_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  /**
   * The simulated demo phones ask, browse, notify and report a moving battery: all three kinds of request within a
   * minute of start, then now and then (device-service/simulator/demo-activity.ts).
   */
  SIMULATOR_DEMO_ACTIVITY: bool(true),
  /** Store installs that failed for an unknown reason: first retry after this, doubling each time (spec 2 §8). */
  INSTALL_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Install attempts (the first included) before an automatic retry gives up. */
  INSTALL_RETRY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** A phone offline longer than this raises the phone.offline alert (once per offline spell). */
  ALERT_OFFLINE_HOURS: z.coerce.number().min(0.25).max(720).default(6),
  SEED_DEMO: bool(true),
  /** The kids app's fixed API key. Production never uses the built-in dev key: one is generated into DATA_DIR. */
  KIDS_APP_API_KEY: z.string().default(DEV_KIDS_APP_KEY),
  SMTP_URL: z.string().default(""),
  MAIL_FROM: z.string().default("Kids Portal <no-reply@kids-portal.local>"),
  GOOGLE_CLIENT_ID: z.string().default(""),
  GOOGLE_CLIENT_SECRET: z.string().default(""),
  GOOGLE_ISSUER: z.string().default("https://accounts.google.com"),
  APPLE_CLIENT_ID: z.string().default(""),
  APPLE_ISSUER: z.string().default("https://appleid.apple.com"),
  APPLE_HIDDEN_HOST: z.string().default("api.kids-portal.example"),
  SHOP_URL: z.string().url().default("https://shop.kids-portal.example"),
  /** Apple's client secret (a JWT you generate); only needed when Apple returns a code without an id_token. */
  APPLE_CLIENT_SECRET: z.string().default(""),
  /** Serve /dev/mailbox even when NODE_ENV=production (never on a real deployment). */
  DEV_MAILBOX: bool(false),
  /** Abuse limits: attempts per client IP per minute on each public form, failed sign-ins per account per hour. */
  RATE_LIMIT_IP_PER_MINUTE: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: z.coerce.number().int().positive().default(100),
  /** Payments: `local` keeps brand/last4/expiry of demo cards; `stripe` needs the three STRIPE_* keys. */
  PAYMENTS_PROVIDER: z.enum(["local", "stripe"]).default("local"),
  STRIPE_SECRET_KEY: z.string().default(""),
  STRIPE_PUBLISHABLE_KEY: z.string().default(""),
  STRIPE_WEBHOOK_SECRET: z.string().default(""),
  /** Stripe's API address (tests point it at a local double; empty: Stripe itself). */
  STRIPE_API_BASE: z.string().default(""),
  FCM_PROJECT_ID: z.string().default(""),
  FCM_CLIENT_EMAIL: z.string().default(""),
  FCM_PRIVATE_KEY: z.string().default(""),
  /** Memory for rendered dashboards reused while nothing on them changed (0 turns the page cache off). */
  PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /** Real store icons: `<base>/<package>.png`, or `{package}` in the base replaced; empty → icons drawn locally. */
  CATALOG_ICON_BASE_URL: z
    .string()
    .default("")
    .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), {
      message: "CATALOG_ICON_BASE_URL must be empty or an http:// or https:// address",
    }),
  /** Webhook deliveries to private, loopback and link-local addresses (development and tests only; docs/webhooks.md). */
  WEBHOOKS_ALLOW_PRIVATE: bool(false),
  /** The MQTT broker of the Home Assistant bridge (mqtt://host:1883 or mqtts://…); empty: the bridge is off (docs/home-assistant.md). */
  MQTT_URL: z
    .string()
    .default("")
    .refine((v) => v === "" || /^(mqtts?|wss?):\/\/[^\s]+$/i.test(v), {
      message: "MQTT_URL must be empty or an mqtt://, mqtts://, ws:// or wss:// address",
    }),
  MQTT_USERNAME: z.string().default(""),
  MQTT_PASSWORD: z.string().default(""),
  /** Home Assistant's discovery prefix (its MQTT integration's setting; "homeassistant" unless changed there). */
  HOME_ASSISTANT_DISCOVERY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("homeassistant"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** The web filter's visited sites (web_visits): days kept, and the rows kept per kid at most (the oldest go first). */
  WEB_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  WEB_LOG_MAX_ROWS_PER_KID: z.coerce.number().int().min(1).default(20_000),
  /**
   * Web Push (the alerts' push channel): the VAPID key pair, base64url (public: the 65-byte P-256 point, private: 32
   * bytes; `npx web-push generate-vapid-keys`). Both empty: a pair generated once into DATA_DIR/.vapid-keys.json.
   */
  VAPID_PUBLIC_KEY: z.string().default(""),
  VAPID_PRIVATE_KEY: z.string().default(""),
  /** Who push services contact about this sender: mailto: or https: (default: PUBLIC_URL when https, else MAIL_FROM's address). */
  VAPID_SUBJECT: z
    .string()
    .default("")
    .refine((v) => v === "" || /^(mailto:\S+@\S+|https:\/\/\S+)$/i.test(v), {
      message: "VAPID_SUBJECT must be a mailto: or https: address",
    }),
  /** The push services a browser's subscription may point at, comma-separated (`*.` for subdomains); empty: the known ones. */
  PUSH_ENDPOINT_HOSTS: z.string().default(""),
  /** Accept http://127.0.0.1 and http://localhost push endpoints (a local push-service double); always on under NODE_ENV=test. */
  PUSH_ALLOW_INSECURE_ENDPOINTS: bool(false),
});

export type Env = z.infer<typeof schema> & { SESSION_SECRET: string; databaseKind: "sqlite" | "postgres"; sqlitePath: string };

/**
 * DATA_DIR holds the database, the log files and the generated secrets: readable by the service's user only (0700).
 * Made so when missing, and tightened when an older version made it with the umask's mode. Every process calls it at
 * start (server/services.ts); the files inside get 0600 where they are made (db/index.ts, core/log-files.server.ts).
 */
export function prepareDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dataDir, 0o700);
  } catch {
    /* not this user's folder (a mounted volume): its owner sets its mode */
  }
}

function devSecret(dataDir: string, name = ".session-secret"): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  prepareDataDir(dataDir);
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === "production" && !e.SESSION_SECRET && source.SESSION_SECRET_WARNED !== "1") {
    // A fresh machine still starts; a real deployment sets SESSION_SECRET (the same on every process).
    console.warn(`SESSION_SECRET is not set: using a generated one kept in ${path.join(e.DATA_DIR, ".session-secret")}.`);
    source.SESSION_SECRET_WARNED = "1";
  }
  let kidsAppApiKey = e.KIDS_APP_API_KEY;
  if (e.NODE_ENV === "production" && kidsAppApiKey === DEV_KIDS_APP_KEY) {
    // The built-in key is public (it is in this repository): production generates its own, like the session secret.
    const file = path.join(e.DATA_DIR, ".kids-app-api-key");
    if (source.KIDS_APP_API_KEY_WARNED !== "1") {
      console.warn(
        `KIDS_APP_API_KEY is not set (or is the built-in dev key): using a generated one kept in ${file}. Build the kids app with it, or set KIDS_APP_API_KEY.`,
      );
      source.KIDS_APP_API_KEY_WARNED = "1";
    }
    kidsAppApiKey = devSecret(e.DATA_DIR, ".kids-app-api-key");
  }
  if (e.NODE_ENV === "production" && !e.PUBLIC_URL) {
    throw new Error(
      "Invalid environment:\n  PUBLIC_URL: required when NODE_ENV=production — the address parents open (e.g. https://portal.example.com); links in mail and sign-in callbacks are built from it, never from a request's Host header",
    );
  }
  if (e.DEVICE_SERVICE_URL && e.DEVICE_SERVICE_KEY.length < 32) {
    throw new Error(
      "Invalid environment:\n  DEVICE_SERVICE_KEY: required with DEVICE_SERVICE_URL (32+ characters, the same on both tiers)",
    );
  }
  if (e.DEVICE_PROCESSES > 1 && !e.REDIS_URL) {
    throw new Error(
      "Invalid environment:\n  DEVICE_PROCESSES: more than one device process needs REDIS_URL (commands and presence cross processes through Redis)",
    );
  }
  if (e.PAYMENTS_PROVIDER === "stripe") {
    const missing = (["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const).filter((k) => !e[k]);
    if (missing.length) throw new Error(`Invalid environment:\n  ${missing.join(", ")}: required with PAYMENTS_PROVIDER=stripe`);
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new Error(
      "Invalid environment:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both (a pair) or neither (one is generated into DATA_DIR)",
    );
  }
  const databaseKind = e.DATABASE_URL.startsWith("postgres") ? "postgres" : "sqlite";
  const sqlitePath = e.DATABASE_URL.startsWith("file:") ? e.DATABASE_URL.slice("file:".length) : path.join(e.DATA_DIR, "portal.sqlite");
  return { ...e, KIDS_APP_API_KEY: kidsAppApiKey, SESSION_SECRET: e.SESSION_SECRET ?? devSecret(e.DATA_DIR), databaseKind, sqlitePath };
}

/**
 * The portal's own origin, for every link that leaves the server (mail, OAuth callbacks, the enrollment QR):
 * PUBLIC_URL, else http://localhost:PORT. Never a request's Host header, which the client chooses.
 */
export function publicOrigin(e: Pick<Env, "PUBLIC_URL" | "PORT">): string {
  return new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
