import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findParentByEmail } from "../db/queries/parents";
import { createSession } from "../db/queries/sessions";

/**
 * The real server for tests that read pages as a browser does: the production build (`npx remix build` first),
 * SQLite in a fresh data directory, the demo family seeded, no simulated phones. The environment is set before
 * `./server` is first imported (it reads it then), so call this before anything else imports the server.
 */
export async function startTestServer(name: string, env: Record<string, string> = {}) {
  Object.assign(process.env, {
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `kids-portal-${name}-test-`)),
    NODE_ENV: "production",
    PUBLIC_URL: "http://portal.test", // required in production; tests connect to `base`
    LOG_LEVEL: "error",
    SIMULATE_DEMO_DEVICES: "false",
    // The web filter on, its DoT on a free port with the development certificate, and no upstream reached by accident.
    DNS_DOT_PORT: "0",
    DNS_DEV_CERT: "true",
    DNS_UPSTREAM: "udp://127.0.0.1:9",
    ...env,
  });
  const { startServer } = await import("./web");
  const { sessionCookie } = await import("../core/session-cookie.server");
  const started = await startServer({ port: 0, quiet: true });
  const base = started.url.replace("0.0.0.0", "127.0.0.1");
  const db = started.services.db;
  /** A new session (an hour idle, a day at most) for a parent by id or e-mail: its token and Cookie header value. */
  const signIn = async (parent: { id: string } | string) => {
    const id = typeof parent === "string" ? (await findParentByEmail(db, parent))!.id : parent.id;
    const token = await createSession(db, id, { idleMinutes: 60, absoluteDays: 1 });
    return { token, cookie: (await sessionCookie().serialize(token)).split(";")[0]! };
  };
  /** GET and same-origin form POST with a cookie, redirects not followed. */
  const get = async (url: string, cookie: string) => {
    const res = await fetch(`${base}${url}`, { headers: { Cookie: cookie }, redirect: "manual" });
    return { res, html: await res.text() };
  };
  const post = (url: string, fields: Record<string, string>, cookie: string) =>
    fetch(`${base}${url}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Cookie: cookie, Origin: base },
      redirect: "manual",
    });
  return { started, base, db, signIn, get, post };
}
