// The server the journeys run against: a fresh SQLite database seeded with the demo family.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "kids-portal-e2e-"));
process.env.NODE_ENV = "production";
process.env.PORT = process.env.E2E_PORT ?? "3199";
process.env.PUBLIC_URL = `http://localhost:${process.env.PORT}`; // the journeys' baseURL: links in mail point here
process.env.SEED_DEMO = "true";
process.env.LOG_LEVEL = "warn";
process.env.SIMULATOR_DEMO_ACTIVITY = "false"; // the journeys count on the demo family as seeded (battery, no requests); e2e/demo-activity.spec.ts starts its own
process.env.SIMULATOR_ACK_DELAY_MS = "3000"; // phones take a moment (longer than a page load on a slow CI machine), so "waiting for the phone" is observable
process.env.DNS_DOT_PORT = "0"; // the web filter's DoT on a free port (parallel servers), the development certificate
process.env.DNS_DEV_CERT = "true";
process.env.WEBHOOKS_ALLOW_PRIVATE = "true"; // the journeys' webhook receiver listens on 127.0.0.1
process.env.INSTALL_RETRY_BASE_MS = "2000"; // a store install that failed for an unknown reason is retried within the journey
// Account journeys: mail goes to a real local SMTP server, Google/Apple to a local OIDC provider (both started by the tests).
Object.assign(process.env, (await import("./mail-env.testing")).accountPeerEnv(Number(process.env.PORT)), { ...process.env });

const { startServer } = await import("../server/web");
const started = await startServer({ quiet: true });
console.log(`e2e server at ${started.url}`);
const stop = () => started.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

// ---- simulator control for the journeys (issue 15): make a demo phone open a web address; report mail (issue 16) ----
// A loopback-only server on an ephemeral port, written to a file the specs read (e2e/phone-control.testing.ts).
// `POST /visit?serialNumber=…&url=…&expectBlocked=1` waits until the phone's applied policy blocks the address
// (the phone acts 3 s after a command arrives, see SIMULATOR_ACK_DELAY_MS), then visits it and answers
// `{"blocked": true|false}`.
{
  const { createServer } = await import("node:http");
  const { writeFileSync } = await import("node:fs");
  const { isBlocked } = await import("../device-service/policy/urls");
  const { controlFile } = await import("./phone-control.testing");
  const { parsePath } = await import("../device-service/simulator/path");
  // `POST /report-mail?profileId=…` (issue 16): the kid's newest report is owed its mail again, and the report job
  // is queued as the hourly tick queues it; the job sends the mail to the SMTP peer of the journeys. The demo's
  // reports were back-filled at start-up (no mail), so this is the one way a journey sees a report mail.
  const mailReportAgain = async (profileId: string) => {
    const { db } = started.services;
    const report = await db
      .selectFrom("reports")
      .select(["id", "title"])
      .where("profile_id", "=", profileId)
      .orderBy("period_start", "desc")
      .executeTakeFirst();
    if (!report) throw new Error(`no report for kid ${profileId}`);
    await db.updateTable("reports").set({ mail_state: "pending", mail_claimed_at: null }).where("id", "=", report.id).execute();
    await started.services.deviceRuntime.deps.jobs!.enqueue("reports", {});
    return report;
  };
  // `POST /device-logs?serialNumber=…&day=YYYY-MM-DD&count=N` (issue 52): a day with many stored log cards, as a phone
  // that flooded before the limits would have left (a phone now stores 10 a minute), for the paging journey.
  const storeDeviceLogs = async (q: URLSearchParams) => {
    const { db } = started.services;
    const { newId } = await import("../core/ids.server");
    const device = await db
      .selectFrom("devices")
      .select("id")
      .where("serial_number", "=", q.get("serialNumber") ?? "")
      .executeTakeFirstOrThrow();
    const day = /^\d{4}-\d{2}-\d{2}$/.test(q.get("day") ?? "") ? q.get("day")! : "2026-01-15";
    const count = Math.min(200, Number(q.get("count")) || 0);
    const rows = Array.from({ length: count }, (_, i) => ({
      id: newId(),
      device_id: device.id,
      title: `Stored log ${i + 1}`,
      details: JSON.stringify({ line: i + 1 }),
      device_time: null,
      created_at: new Date(Date.parse(`${day}T08:00:00.000Z`) + i * 60_000).toISOString(),
    }));
    if (rows.length) await db.insertInto("device_logs").values(rows).execute();
    return { stored: rows.length };
  };
  // `POST /web-lookups?serialNumber=…&names=a.example,b.example` (issue 54 item 5): the phone's kid looks the names up
  // through the web filter as a phone with Private DNS would, decided by the kid's policy and recorded by the visit
  // recorder, then flushed (no upstream is reachable in the journeys, so the resolver itself is not asked).
  const recordLookups = async (q: URLSearchParams) => {
    const runtime = started.services.webFilterRuntime;
    if (!runtime) throw new Error("the web filter is off on this server");
    const row = await started.services.db
      .selectFrom("devices")
      .innerJoin("web_filter_settings", "web_filter_settings.profile_id", "devices.profile_id")
      .select("web_filter_settings.filter_id")
      .where("devices.serial_number", "=", q.get("serialNumber") ?? "")
      .executeTakeFirstOrThrow();
    const names = (q.get("names") ?? "").split(",").filter(Boolean);
    for (const qname of names) {
      const decision = await runtime.policy.decide(row.filter_id, qname, "A");
      runtime.visits.record({ filterId: row.filter_id, qname, qtype: "A", decision, rcode: "NOERROR" });
    }
    await runtime.visits.flush();
    return { recorded: names.length };
  };
  const control = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? "/", "http://x");
      if (req.method === "POST" && u.pathname === "/report-mail") {
        res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify(await mailReportAgain(u.searchParams.get("profileId") ?? "")));
        return;
      }
      if (req.method === "POST" && u.pathname === "/web-lookups") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(await recordLookups(u.searchParams)));
        return;
      }
      // `POST /private-dns?serialNumber=…&mode=off|automatic|policy|<hostname>` (issue 54 item 4): the kid changes the
      // demo phone's Private DNS (policy: back to the hostname its policy names); answers once the phone reported it.
      if (req.method === "POST" && u.pathname === "/private-dns") {
        const phone = started.demo?.phones.find((p) => p.serialNumber === u.searchParams.get("serialNumber"));
        const mode = u.searchParams.get("mode") ?? "";
        if (!phone || !mode) return void res.writeHead(404).end();
        // The phone must hold its policy's hostname first (it acts on a policy a few seconds after it arrives).
        if (!phone.state.privateDns) await new Promise((resolve) => phone.once("private-dns", resolve));
        await phone.setPrivateDns(
          mode === "policy"
            ? null
            : mode === "off"
              ? { mode: "off" }
              : mode === "automatic"
                ? { mode: "opportunistic" }
                : { mode: "hostname", hostname: mode },
        );
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(phone.state.privateDns ?? null));
        return;
      }
      if (req.method === "POST" && u.pathname === "/move") {
        // A demo phone walks along a path ("lat,lng;lat,lng;…"), reporting its location at each point (issue 55).
        const mover = started.demo?.phones.find((p) => p.serialNumber === u.searchParams.get("serialNumber"));
        if (!mover) {
          res.writeHead(404).end();
          return;
        }
        const points = parsePath(u.searchParams.get("path") ?? "");
        await mover.moveAlong(points);
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ moved: points.length }));
        return;
      }
      if (req.method === "POST" && u.pathname === "/device-logs") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(await storeDeviceLogs(u.searchParams)));
        return;
      }
      const q = u.searchParams;
      const phone = started.demo?.phones.find((p) => p.serialNumber === q.get("serialNumber"));
      const url = q.get("url") ?? "";
      if (req.method !== "POST" || !phone || !url) {
        res.writeHead(404).end();
        return;
      }
      const policyBlocks = () => isBlocked((phone.state.policy as { blockedUrls?: string[] } | undefined)?.blockedUrls ?? [], url);
      if (q.get("expectBlocked") === "1" && !policyBlocks()) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error("the phone's policy never blocked it")), 20_000);
          const on = () => {
            if (!policyBlocks()) return;
            clearTimeout(t);
            phone.off("policy", on);
            resolve();
          };
          phone.on("policy", on);
        });
      }
      const r = await phone.visit(url);
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(r));
    })().catch((err: unknown) => {
      res.writeHead(500, { "Content-Type": "text/plain" }).end(err instanceof Error ? err.message : String(err));
    });
  });
  control.on("error", (err) => console.error(`phone control: ${err.message}`));
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  control.unref();
  writeFileSync(controlFile(Number(process.env.PORT)), String((control.address() as { port: number }).port));
}
