import type { DeviceServiceDeps } from "../../device-service/context";
import type { Payload } from "../../core/job-queues";
import { deliverWebhook, sweepWebhooks } from "../webhooks/deliver";

/** One attempt of one webhook delivery (jobs/webhooks/deliver.ts); a failed attempt queues the next itself. */
export async function webhookDelivery(deps: DeviceServiceDeps, p: Payload<"webhook-delivery">): Promise<void> {
  await deliverWebhook(deps, p.deliveryId);
}

/** The minute's sweep of overdue deliveries. */
export async function webhookSweep(deps: DeviceServiceDeps): Promise<void> {
  await sweepWebhooks(deps);
}
