import type { DB } from "../db/index";
import type { Bus } from "./bus";

export interface ParentIdentity {
  id: string;
  email: string;
  role: "parent" | "operator";
}

export interface DeviceServiceDeps {
  db: DB;
  bus: Bus;
  log: (level: "debug" | "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

export interface DeviceServiceContext extends DeviceServiceDeps {
  parent: ParentIdentity | null;
}
