import type { DeviceServiceDeps } from "../../device-service/context";
import type { Payload } from "../../core/job-queues";
import { buildDueReports } from "../reports/build";

/** The hourly report tick (and start-up re-derivation, and back-fill): builds missing reports, mails the ones owed. */
export async function reports(deps: DeviceServiceDeps, p: Payload<"reports">): Promise<void> {
  await buildDueReports(
    { db: deps.db, log: deps.log, mailer: deps.reports?.mailer, secret: deps.reports?.secret, publicUrl: deps.publicUrl },
    { since: p.since },
  );
}
