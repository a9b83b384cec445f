// The server the journeys run against: a fresh SQLite database seeded with the demo family.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "kids-portal-e2e-"));
process.env.NODE_ENV = "production";
process.env.PORT = process.env.E2E_PORT ?? "3199";
process.env.SEED_DEMO = "true";
process.env.LOG_LEVEL = "warn";
process.env.SIMULATOR_ACK_DELAY_MS = "3000"; // phones take a moment (longer than a page load on a slow CI machine), so "waiting for the phone" is observable
// Account journeys: mail goes to a real local SMTP server, Google/Apple to a local OIDC provider (both started by the tests).
Object.assign(process.env, (await import("./helpers/mail-env")).accountPeerEnv(Number(process.env.PORT)), { ...process.env });

const { startServer } = await import("../server");
const started = await startServer({ quiet: true });
console.log(`e2e server at ${started.url}`);
const stop = () => started.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
