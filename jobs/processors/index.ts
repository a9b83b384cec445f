import type { DeviceServiceDeps } from "../../device-service/context";
import type { Processors } from "../queues";
import { commandExpiry } from "./command-expiry";
import { installRetry } from "./install-retry";
import { kidsRefresh } from "./kids-refresh";

export function createProcessors(deps: DeviceServiceDeps): Processors {
  return {
    "kids-refresh": (p) => kidsRefresh(deps, p),
    "command-expiry": (p) => commandExpiry(deps, p),
    "install-retry": (p) => installRetry(deps, p),
  };
}
