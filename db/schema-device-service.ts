import type { Generated, Selectable } from "kysely";

/** Booleans are 0/1 integers. */
type Bool = number;

// ---- the device service: commands, policies, enrollment, what phones send (migration 2026-11-21T01-device-service); part of `Database` in schema.ts ----

export type CommandStatus = "queued" | "sent" | "acknowledged" | "failed" | "expired";

export interface DeviceCommandsTable {
  id: string;
  device_id: string;
  type: string;
  /** JSON */
  payload: string;
  status: CommandStatus;
  policy_version: number | null;
  attempts: Generated<number>;
  issued_by: string | null;
  error: string | null;
  /** JSON */
  result: string | null;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
}

export interface DevicePoliciesTable {
  device_id: string;
  version: number;
  /** JSON policy document */
  document: string;
  command_id: string | null;
  created_at: string;
  acknowledged_at: string | null;
}

export interface EnrollmentTokensTable {
  token_hash: string;
  profile_id: string;
  parent_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  device_id: string | null;
}

export interface DeviceMessageReceiptsTable {
  device_id: string;
  message_id: string;
  received_at: string;
  /** The message's event (notification, device_log, …) for the per-phone daily caps (migration 2026-11-28T01-telemetry-limits); null before it. */
  kind: string | null;
}

export type AppRequestType = "App Install" | "App Uninstall" | "Extend Time";

export interface AppRequestsTable {
  id: string;
  profile_id: string;
  device_id: string;
  package_name: string;
  request_type: AppRequestType;
  status: Generated<"Pending" | "Approved" | "Rejected">;
  extended_time: Generated<number>;
  remarks: string | null;
  created_at: string;
  updated_at: string;
  /** The phone's message id of the request (migration 2026-11-23T09-requests). */
  message_id: string | null;
  answered_by: string | null;
  answered_at: string | null;
}

export interface BrowserLogsTable {
  id: string;
  device_id: string;
  url: string;
  day: string;
  is_blocked: Generated<Bool>;
  visits: Generated<number>;
  /** Of `visits`, how many the phone blocked (migration 2026-11-23T03-logs). */
  blocked_visits: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface DeviceLogsTable {
  id: string;
  device_id: string;
  title: string | null;
  /** JSON */
  details: string;
  device_time: string | null;
  created_at: string;
}

export interface InstallRetriesTable {
  device_id: string;
  package_name: string;
  attempts: Generated<number>;
  reason: string;
  /** pending: a timed retry; waiting_online / waiting_storage: resumes when the phone is back or has room; sent: sent again, awaiting the result. */
  status: "pending" | "waiting_online" | "waiting_storage" | "sent" | "done" | "gave_up";
  next_attempt_at: string;
  free_storage_mb: Generated<number | null>;
  updated_at: string;
}

export type DeviceCommand = Selectable<DeviceCommandsTable>;

export interface DeviceServiceDatabase {
  device_commands: DeviceCommandsTable;
  device_policies: DevicePoliciesTable;
  enrollment_tokens: EnrollmentTokensTable;
  device_message_receipts: DeviceMessageReceiptsTable;
  app_requests: AppRequestsTable;
  browser_logs: BrowserLogsTable;
  device_logs: DeviceLogsTable;
  install_retries: InstallRetriesTable;
}
