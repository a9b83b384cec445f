import type { DeviceServiceDeps } from "../../device-service/context";
import type { Payload } from "../../core/job-queues";
import { alertTick as tick, deliverAlert, type AlertDeliveryDeps } from "../alerts/deliver";

function deliveryDeps(deps: DeviceServiceDeps): AlertDeliveryDeps & { offlineHours?: number } {
  return {
    db: deps.db,
    log: deps.log,
    jobs: deps.jobs,
    bus: deps.bus,
    mailer: deps.reports?.mailer,
    secret: deps.reports?.secret,
    publicUrl: deps.publicUrl,
    push: deps.alerts?.push,
    mailOff: deps.alerts?.mailOff,
    offlineHours: deps.alerts?.offlineHours,
  };
}

/** One alert's channels, each at most once (jobs/alerts/deliver.ts). */
export async function alertDelivery(deps: DeviceServiceDeps, p: Payload<"alert-delivery">): Promise<void> {
  await deliverAlert(deliveryDeps(deps), p.alertId);
}

/** Offline phones, lost deliveries, ended quiet hours (every 5 minutes). */
export async function alertTick(deps: DeviceServiceDeps, _p: Payload<"alert-tick">): Promise<void> {
  await tick(deliveryDeps(deps));
}
