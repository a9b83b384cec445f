import type { DeviceServiceDeps } from "../../device-service/context";
import type { Processors } from "../../core/job-queues";
import { commandExpiry } from "./command-expiry";
import { dailyReset } from "./daily-reset";
import { installRetry } from "./install-retry";
import { kidsRefresh } from "./kids-refresh";
import { reports } from "./reports";
import { webhookDelivery, webhookSweep } from "./webhook-delivery";
import { alertDelivery, alertTick } from "./alerts";

export function createProcessors(deps: DeviceServiceDeps): Processors {
  return {
    "kids-refresh": (p) => kidsRefresh(deps, p),
    "command-expiry": (p) => commandExpiry(deps, p),
    "install-retry": (p) => installRetry(deps, p),
    "daily-reset": (p) => dailyReset(deps, p),
    reports: (p) => reports(deps, p),
    "webhook-delivery": (p) => webhookDelivery(deps, p),
    "webhook-sweep": () => webhookSweep(deps),
    "alert-delivery": (p) => alertDelivery(deps, p),
    "alert-tick": (p) => alertTick(deps, p),
  };
}
