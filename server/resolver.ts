/**
 * `npm run resolver`: the web filter's DNS-over-TLS alone (docs/web-filter.md), for deployments that serve it apart
 * from the web processes (port 853 on its own address). It holds the filter ids and every kid's policy in memory and
 * hears their changes on the bus (Redis), so it needs REDIS_URL; `npm start` serves DoT in the web process.
 * Composed by `createServices({ kind: "resolver" })` like every process; graceful on SIGTERM/SIGINT.
 */
import { env } from "../core/env.server";
import { closeOnSignal, createServices } from "./services";

async function main() {
  const services = await createServices({ kind: "resolver", env: env() });
  const filter = services.webFilterRuntime;
  const dot = await filter.startDot();
  services.log("info", "resolver started", { dnsOverTlsPort: dot.port, filterDomain: filter.settings.DNS_FILTER_DOMAIN });
  closeOnSignal(services, "resolver");
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
