import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { OAuth2Server } from "oauth2-mock-server";
import { SMTPServer } from "smtp-server";
import { accountPeerPorts } from "./mail-env.testing";

export { expect };

export interface MailImage {
  contentType: string;
  /** Content-ID without the angle brackets */
  cid: string;
  bytes: Buffer;
}

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The plain-text part (the whole body of a one-part mail) */
  text: string;
  /** The HTML part, when there is one */
  html: string;
  /** Inline images (report charts) */
  images: MailImage[];
}

type Part = { head: string; body: string };

function header(head: string, name: string): string {
  return (
    head
      .split("\r\n")
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? ""
  );
}

function splitPart(raw: string): Part {
  const split = raw.indexOf("\r\n\r\n");
  return { head: raw.slice(0, split).replace(/\r\n[ \t]+/g, " "), body: raw.slice(split + 4) };
}

function decodeBody(p: Part): Buffer {
  const enc = header(p.head, "Content-Transfer-Encoding").toLowerCase();
  if (enc === "quoted-printable")
    return Buffer.from(
      p.body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    );
  if (enc === "base64") return Buffer.from(p.body.replace(/\s+/g, ""), "base64");
  return Buffer.from(p.body, "utf8");
}

/** The leaf parts of a (nested) multipart body. */
function leaves(p: Part): Part[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(header(p.head, "Content-Type"))?.[1];
  if (!boundary) return [p];
  return p.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => splitPart(chunk.replace(/^\r\n/, "").replace(/\r\n$/, "")))
    .flatMap(leaves);
}

/** RFC 2047 encoded words (a subject with a dash or an accent). */
function decodeWords(s: string): string {
  return s.replace(/=\?utf-8\?([qb])\?([^?]*)\?=(?:\s+(?==\?))?/gi, (_m, kind: string, data: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : Buffer.from(
          data.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

/** Just enough MIME for nodemailer's mails: unfolded headers, 7bit / quoted-printable / base64 bodies, multipart text + HTML + inline images. */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const top = splitPart(raw);
  const parts = leaves(top);
  const type = (p: Part) => header(p.head, "Content-Type").toLowerCase();
  const text = parts.find((p) => type(p) === "" || type(p).startsWith("text/plain"));
  const html = parts.find((p) => type(p).startsWith("text/html"));
  const images = parts
    .filter((p) => type(p).startsWith("image/"))
    .map((p) => ({ contentType: type(p).split(";")[0], cid: header(p.head, "Content-ID").replace(/^<|>$/g, ""), bytes: decodeBody(p) }));
  return {
    to,
    subject: decodeWords(header(top.head, "Subject")),
    text: text ? decodeBody(text).toString("utf8").replace(/\r\n/g, "\n") : "",
    html: html ? decodeBody(html).toString("utf8").replace(/\r\n/g, "\n") : "",
    images,
  };
}

export class Mailbox {
  mails: ReceivedMail[] = [];
  /** Waits for the newest mail to `to` whose subject contains `subject`, received after `since` mails. */
  async waitFor(to: string, subject: string, opts: { after?: number; timeoutMs?: number } = {}): Promise<ReceivedMail> {
    const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
    const want = to.toLowerCase();
    for (;;) {
      const found = this.mails
        .slice(opts.after ?? 0)
        .filter((m) => m.to.some((t) => t.toLowerCase() === want) && m.subject.includes(subject))
        .at(-1);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no mail "${subject}" to ${to} (have: ${this.mails.map((m) => `${m.to}:${m.subject}`).join(", ")})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  count(to: string): number {
    return this.mails.filter((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase())).length;
  }
}

export function linkIn(mail: ReceivedMail): string {
  const m = mail.text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in mail: ${mail.text}`);
  return m[0];
}

export function codeIn(mail: ReceivedMail): string {
  const m = mail.text.match(/sign-in code is: (\d{4})/);
  if (!m) throw new Error(`no code in mail: ${mail.text}`);
  return m[1]!;
}

/** What the local OIDC provider puts in the next id_token (email and whether it is verified). */
export interface OidcControl {
  server: OAuth2Server;
  url: string;
  email: string | null;
  /**
   * Apple's authorize step: when set, the provider's authorize redirect goes to a local "Apple" page that
   * form_posts code, id_token (from this function, given the request's nonce) and state back to the app.
   */
  appleIdToken: ((nonce: string) => Promise<string>) | null;
}

function escapeAttr(s: string) {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

const appPort = Number(process.env.E2E_PORT ?? 3199);

/** Worker-scoped peers: one real SMTP server and one OIDC provider per test worker, on the ports e2e/server.ts expects. */
export const test = base.extend<object, { mailbox: Mailbox; oidc: OidcControl }>({
  mailbox: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from the destructuring
    async ({}, use) => {
      const mailbox = new Mailbox();
      const smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["AUTH", "STARTTLS"],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            mailbox.mails.push(
              parseMail(
                Buffer.concat(chunks).toString("utf8"),
                session.envelope.rcptTo.map((r) => r.address),
              ),
            );
            callback();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        smtp.once("error", reject);
        smtp.listen(accountPeerPorts(appPort).smtp, "127.0.0.1", () => resolve());
      });
      await use(mailbox);
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
    { scope: "worker", auto: true },
  ],
  oidc: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from the destructuring
    async ({}, use) => {
      const server = new OAuth2Server();
      const port = accountPeerPorts(appPort).oidc;
      // One signing key for every worker of a run: the app caches the provider's keys, as it should.
      const keyFile = path.join(os.tmpdir(), `kids-portal-e2e-oidc-key-${port}.json`);
      if (existsSync(keyFile)) await server.issuer.keys.add(JSON.parse(readFileSync(keyFile, "utf8")) as Record<string, unknown>);
      else
        writeFileSync(keyFile, JSON.stringify((await server.issuer.keys.generate("RS256"), server.issuer.keys.toJSON(true)[0])), {
          mode: 0o600,
        });
      await server.start(port, "127.0.0.1");
      const control: OidcControl = { server, url: `http://127.0.0.1:${port}`, email: null, appleIdToken: null };
      // The "Apple" consent page: a form that posts back cross-site, as Apple's response_mode=form_post does.
      const applePage: Server = createServer((req, res) => {
        const q = new URL(req.url ?? "/", "http://x").searchParams;
        const make = control.appleIdToken;
        if (!make) {
          res.writeHead(500).end("no Apple id_token configured");
          return;
        }
        make(q.get("nonce") ?? "").then(
          (idToken) => {
            res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(`<!doctype html><title>Sign in with Apple</title>
<form method="post" action="${escapeAttr(q.get("redirect_uri") ?? "")}"><input type="hidden" name="code" value="${escapeAttr(q.get("code") ?? "")}">
<input type="hidden" name="id_token" value="${escapeAttr(idToken)}"><input type="hidden" name="state" value="${escapeAttr(q.get("state") ?? "")}">
<button type="submit">Continue</button></form>`);
          },
          (err) => res.writeHead(500).end(String(err)),
        );
      });
      await new Promise<void>((resolve) => applePage.listen(port + 1, "127.0.0.1", () => resolve()));
      server.service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: { url?: string }) => {
        const q = new URL(req.url ?? "/", "http://x").searchParams;
        if (q.get("response_mode") !== "form_post") return;
        const page = new URL(`http://127.0.0.1:${port + 1}/auth/authorize`);
        for (const k of ["redirect_uri", "state", "nonce", "client_id"]) page.searchParams.set(k, q.get(k) ?? "");
        page.searchParams.set("code", redirect.url.searchParams.get("code") ?? "");
        redirect.url.href = page.href; // the provider redirects with this same URL object
      });
      server.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
        if (control.email) {
          token.payload.email = control.email;
          token.payload.email_verified = true;
        }
      });
      await use(control);
      await new Promise<void>((resolve) => applePage.close(() => resolve()));
      await server.stop();
    },
    { scope: "worker" },
  ],
});

export function uniqueEmail(prefix: string, project: string): string {
  return `${prefix}-${project}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function register(page: Page, email: string, password: string, name = "Alex Parent") {
  await page.goto("/registration");
  await page.getByLabel("Parent name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  // Sign-up signs the new parent in (issue 11 item 5); the account journeys then start signed out (that session
  // ended), as a returning parent.
  await expect(page).toHaveURL(/\/kids-device/);
  await expect(page.getByText("Welcome! Your account has been created.")).toBeVisible();
  await signOut(page);
}

export async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signOut(page: Page) {
  await page.goto("/kids-device?modal=logout");
  await page.getByRole("dialog").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
}
