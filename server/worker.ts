/**
 * `npm run worker`: the job workers alone (BullMQ on REDIS_URL), for deployments that run them apart from
 * the web processes. Graceful on SIGTERM/SIGINT: workers finish the job in hand, then connections close.
 */
import { env } from "../core/env.server";
import { closeOnSignal, createServices } from "./services";

async function main() {
  const services = await createServices({ kind: "worker", env: env() });
  services.log("info", "worker started", { queues: (await services.jobs.counts()).map((c) => c.name), ...services.recovered });

  closeOnSignal(services, "worker");
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
