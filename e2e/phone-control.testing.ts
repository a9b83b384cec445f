import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where e2e/server.ts writes the port of its simulator control server, per E2E port. */
export function controlFile(e2ePort: number): string {
  return path.join(os.tmpdir(), `kids-portal-e2e-${e2ePort}.phone-control`);
}

/**
 * Makes a demo phone open a web address through the e2e server's control server. With expectBlocked it
 * first waits until the phone has applied a policy that blocks it. Resolves with what the phone did.
 */
export async function visitOnPhone(
  serialNumber: string,
  url: string,
  opts: { expectBlocked?: boolean } = {},
): Promise<{ blocked: boolean }> {
  const port = readFileSync(controlFile(Number(process.env.E2E_PORT ?? 3199)), "utf8").trim();
  const qs = new URLSearchParams({ serialNumber, url, ...(opts.expectBlocked ? { expectBlocked: "1" } : {}) });
  const res = await fetch(`http://127.0.0.1:${port}/visit?${qs}`, { method: "POST" });
  if (!res.ok) throw new Error(`phone control answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { blocked: boolean };
}

/**
 * Makes the report job mail a kid's newest report again (through the e2e server's control server): the mail
 * goes to the journeys' SMTP peer (e2e/mail.testing.ts). Resolves with the report's id and title.
 */
export async function mailReportAgain(profileId: string): Promise<{ id: string; title: string }> {
  const port = readFileSync(controlFile(Number(process.env.E2E_PORT ?? 3199)), "utf8").trim();
  const res = await fetch(`http://127.0.0.1:${port}/report-mail?${new URLSearchParams({ profileId })}`, { method: "POST" });
  if (!res.ok) throw new Error(`report control answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string; title: string };
}

/** Stores `count` log cards of a demo phone on `day` (through the e2e server's control server): a long day of logs. */
export async function storeDeviceLogs(serialNumber: string, day: string, count: number): Promise<void> {
  const port = readFileSync(controlFile(Number(process.env.E2E_PORT ?? 3199)), "utf8").trim();
  const res = await fetch(`http://127.0.0.1:${port}/device-logs?${new URLSearchParams({ serialNumber, day, count: String(count) })}`, {
    method: "POST",
  });
  if (!res.ok) throw new Error(`log control answered ${res.status}: ${await res.text()}`);
}

/** The demo phone's kid looks `names` up through the web filter (e2e/server.ts `/web-lookups`): its Sites visited. */
export async function lookUpOnPhone(serialNumber: string, names: string[]): Promise<void> {
  const port = readFileSync(controlFile(Number(process.env.E2E_PORT ?? 3199)), "utf8").trim();
  const res = await fetch(`http://127.0.0.1:${port}/web-lookups?${new URLSearchParams({ serialNumber, names: names.join(",") })}`, {
    method: "POST",
  });
  if (!res.ok) throw new Error(`lookup control answered ${res.status}: ${await res.text()}`);
}

/**
 * The kid changes a demo phone's Private DNS (through the e2e server's control server): "off", "automatic", a hostname,
 * or "policy" (back to the filter hostname the phone's policy names). Resolves once the phone reported it.
 */
export async function setPrivateDnsOnPhone(serialNumber: string, mode: string): Promise<unknown> {
  const port = readFileSync(controlFile(Number(process.env.E2E_PORT ?? 3199)), "utf8").trim();
  const res = await fetch(`http://127.0.0.1:${port}/private-dns?${new URLSearchParams({ serialNumber, mode })}`, { method: "POST" });
  if (!res.ok) throw new Error(`Private DNS control answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Walks a demo phone along `points` (through the e2e server's control server): it reports its location at each. */
export async function movePhone(serialNumber: string, points: { latitude: number; longitude: number }[]): Promise<void> {
  const port = readFileSync(controlFile(Number(process.env.E2E_PORT ?? 3199)), "utf8").trim();
  const path = points.map((p) => `${p.latitude},${p.longitude}`).join(";");
  const res = await fetch(`http://127.0.0.1:${port}/move?${new URLSearchParams({ serialNumber, path })}`, { method: "POST" });
  if (!res.ok) throw new Error(`move control answered ${res.status}: ${await res.text()}`);
}
