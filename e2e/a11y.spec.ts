import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Browser, type BrowserContext, type TestInfo } from "@playwright/test";
import { newContextAs, signInForBuiltPages, type SignedInState } from "./built-pages.testing";
import { BUILT_PAGES, type DemoIds, type Who } from "./pages.testing";

// Valid, accessible markup (issue 11 item 7), in the `js` and `no-js` projects: axe-core (from npm, evaluated in
// Debian's Chromium) on every built page and popup, failing on any serious or critical violation; the Nu Html
// Checker (vnu-jar from npm, on Java) on the server HTML of every one of them, failing on any error.
const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const VNU_JAR = String(require("vnu-jar")); // the module is a String object carrying the jar's path

const TIMERS_AS_MICROTASKS = `(() => {
  let n = 0;
  const live = new Set();
  window.setTimeout = (fn, _ms, ...args) => { const id = ++n; live.add(id); Promise.resolve().then(() => { if (live.delete(id)) fn(...args); }); return id; };
  window.clearTimeout = (id) => { live.delete(id); };
  window.requestAnimationFrame = (fn) => window.setTimeout(() => fn(performance.now()));
})()`;

let ids: DemoIds;
let states: Partial<Record<Who, SignedInState>> = {};

const newContext = (browser: Browser, info: TestInfo, who: Who) => newContextAs(browser, info, who, states);

test.beforeAll(async ({ browser }, info) => {
  ({ ids, states } = await signInForBuiltPages(browser, info));
});

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

for (const p of BUILT_PAGES) {
  test(`axe: ${p.name} has no serious or critical violation`, async ({ browser }, info) => {
    const context = await newContext(browser, info, p.who);
    try {
      const page = await context.newPage();
      const res = await page.goto(p.url(ids));
      expect(res?.status(), "status").toBe(p.status ?? 200);
      // Evaluated, not injected as a <script>: it runs with JavaScript off too, and the page's CSP does not apply.
      // With JavaScript off the page's timers never fire, and axe queues its work on them: run them as microtasks.
      if (!info.project.use.javaScriptEnabled) await page.evaluate(TIMERS_AS_MICROTASKS);
      await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
        const r = await axe.run(document, { resultTypes: ["violations"] });
        return r.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
        }));
      });
      const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}

test("Nu Html Checker: the server HTML of every built page has no error", async ({ browser }, info) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "vnu-"));
  const files: { file: string; name: string }[] = [];
  const contexts: Partial<Record<Who, BrowserContext>> = {};
  try {
    for (const p of BUILT_PAGES) {
      contexts[p.who] ??= await newContext(browser, info, p.who);
      const res = await contexts[p.who]!.request.get(p.url(ids), { maxRedirects: 0 });
      expect(res.status(), p.name).toBe(p.status ?? 200);
      const file = path.join(dir, `${files.length}.html`);
      writeFileSync(file, await res.text());
      files.push({ file, name: p.name });
    }
  } finally {
    await Promise.all(Object.values(contexts).map((c) => c?.close()));
  }
  const { stderr } = await promisify(execFile)(
    "java",
    ["-jar", VNU_JAR, "--format", "json", "--exit-zero-always", ...files.map((f) => f.file)],
    { maxBuffer: 32 * 1024 * 1024 },
  );
  const report = JSON.parse(stderr) as { messages: { type: string; url?: string; message: string; extract?: string; lastLine?: number }[] };
  const byFile = new Map(files.map((f) => [path.basename(f.file), f.name]));
  const errors = report.messages
    .filter((m) => m.type === "error" || m.type === "non-document-error")
    .map(
      (m) =>
        `${byFile.get(path.basename(m.url ?? "")) ?? m.url}: line ${m.lastLine ?? "?"}: ${m.message}${m.extract ? `\n    ${m.extract.replace(/\s+/g, " ").trim()}` : ""}`,
    );
  expect(errors).toEqual([]);
});
