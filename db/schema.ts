import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Timestamps are ISO-8601 UTC strings; booleans are 0/1 integers. */
type Bool = number;

export interface ParentsTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  role: "parent" | "operator";
  use_default_password: Generated<Bool>;
  hide_google: Generated<Bool>;
  two_step_enabled: Generated<Bool>;
  email_verified_at: string | null;
  kids_report_type: Generated<"Off" | "Weekly" | "Monthly">;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  parent_id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface KidProfilesTable {
  id: string;
  parent_id: string;
  name: string;
  birth_month: number;
  birth_year: number;
  sleep_mode: Generated<Bool>;
  picture_mime: string | null;
  picture: Buffer | null;
  created_at: string;
  updated_at: string;
  /** Changes whenever anything on the kid's dashboard changes (database triggers; see the view-revisions migration). */
  view_rev: Generated<number>;
}

export interface DevicesTable {
  id: string;
  profile_id: string;
  serial_number: string;
  app_version: string | null;
  brand: string | null;
  model: string | null;
  hardware: string | null;
  baseband_version: string | null;
  manufacturer: string | null;
  android_version: string | null;
  language_code: string | null;
  imei: string | null;
  wifi_mac: string | null;
  network_operator: string | null;
  phone_number: string | null;
  total_ram: string | null;
  total_storage: string | null;
  protection_enabled: Generated<Bool>;
  allow_full_device_access: Generated<Bool>;
  enable_location_map_display: Generated<Bool>;
  last_activation_at: string | null;
  credential_hash: string | null;
  fcm_token: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeviceStatusTable {
  device_id: string;
  battery_percentage: number | null;
  battery_checked_at: string | null;
  wifi_connected: Generated<Bool>;
  kids_app_status: Generated<string>;
  additional_data: string | null;
  app_version: string | null;
  protection_state: Generated<Bool>;
  online: Generated<Bool>;
  updated_at: string;
}

export interface StoreCategoriesTable {
  id: string;
  name: string;
  sort: number;
}

export type ExpertRating = "EXPERT_RECOMMENDATION" | "PARENTAL_SUPERVISION" | "16+" | null;

export interface CatalogAppsTable {
  package_name: string;
  title: string;
  icon: string | null;
  header_image: string | null;
  price: Generated<number>;
  free: Generated<Bool>;
  score_text: string | null;
  reviews: Generated<number>;
  content_rating: string | null;
  genre: string | null;
  genre_id: string | null;
  developer: string | null;
  developer_id: string | null;
  android_version_text: string | null;
  offers_iap: Generated<Bool>;
  ad_supported: Generated<Bool>;
  screenshots: Generated<string>;
  description_html: string | null;
  recent_changes: string | null;
  updated: string | null;
  privacy_policy: string | null;
  url: string | null;
  expert_rating: ExpertRating;
  expert_rating_comment: string | null;
  is_system_app: Generated<Bool>;
  min_age: Generated<number>;
}

export type DisabledType = "Manually" | "Overuse" | "Category Overuse" | "Cronjob" | "Global Daily Limit Reach";

export interface ProfileAppsTable {
  id: string;
  profile_id: string;
  device_id: string;
  package_name: string;
  play_store_category: Generated<string>;
  enable_daily_limit: Generated<Bool>;
  daily_limit_minutes: Generated<number>;
  is_app_disabled: Generated<Bool>;
  disabled_type: DisabledType | null;
  is_installed: Generated<Bool>;
  installation_failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface CategoryLimitsTable {
  id: string;
  profile_id: string;
  category: string;
  enable_daily_limit: Generated<Bool>;
  daily_limit_minutes: Generated<number>;
  is_category_enabled: Generated<Bool>;
  updated_at: string;
}

export interface AppUsageHourlyTable {
  device_id: string;
  package_name: string;
  hour: string;
  minutes: number;
}

export interface AppUsageDailyTable {
  device_id: string;
  package_name: string;
  day: string;
  minutes: number;
}

export interface GlobalSettingsTable {
  device_id: string;
  key: string;
  value: string;
  updated_at: string;
}

export interface LocationSettingsTable {
  device_id: string;
  enable_location_tracking: Generated<Bool>;
  location_tracking_interval: Generated<number>;
  updated_at: string;
}

export interface DeviceLocationsTable {
  id: string;
  device_id: string;
  latitude: number;
  longitude: number;
  device_time: string;
  received_at: string;
}

export interface NotificationsTable {
  id: string;
  profile_id: string;
  device_id: string;
  message: string;
  type: string;
  package_name: string | null;
  created_at: string;
  read_at: string | null;
}

export interface DelegationsTable {
  id: string;
  owner_parent_id: string;
  delegate_email: string;
  delegate_name: string;
  access_level: Generated<string>;
  status: Generated<"Pending" | "Accepted" | "Rejected" | "Revoked">;
  created_at: string;
  updated_at: string;
}

export interface DelegationKidsTable {
  delegation_id: string;
  profile_id: string;
}

export interface Database {
  parents: ParentsTable;
  sessions: SessionsTable;
  kid_profiles: KidProfilesTable;
  devices: DevicesTable;
  device_status: DeviceStatusTable;
  store_categories: StoreCategoriesTable;
  catalog_apps: CatalogAppsTable;
  profile_apps: ProfileAppsTable;
  category_limits: CategoryLimitsTable;
  app_usage_hourly: AppUsageHourlyTable;
  app_usage_daily: AppUsageDailyTable;
  global_settings: GlobalSettingsTable;
  location_settings: LocationSettingsTable;
  device_locations: DeviceLocationsTable;
  notifications: NotificationsTable;
  delegations: DelegationsTable;
  delegation_kids: DelegationKidsTable;
  device_commands: DeviceCommandsTable;
  device_policies: DevicePoliciesTable;
  enrollment_tokens: EnrollmentTokensTable;
  device_message_receipts: DeviceMessageReceiptsTable;
  app_requests: AppRequestsTable;
  browser_logs: BrowserLogsTable;
  device_logs: DeviceLogsTable;
  install_retries: InstallRetriesTable;
  mail_outbox: MailOutboxTable;
  used_links: UsedLinksTable;
  otp_codes: OtpCodesTable;
  signin_tokens: SigninTokensTable;
  rate_limits: RateLimitsTable;
}

export type Parent = Selectable<ParentsTable>;
export type NewParent = Insertable<ParentsTable>;
export type ParentUpdate = Updateable<ParentsTable>;
export type KidProfile = Selectable<KidProfilesTable>;
export type Device = Selectable<DevicesTable>;
export type DeviceStatus = Selectable<DeviceStatusTable>;
export type CatalogApp = Selectable<CatalogAppsTable>;
export type ProfileApp = Selectable<ProfileAppsTable>;

// ---- device service (migration 2026-11-21T01-device-service) ----

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
}

export interface BrowserLogsTable {
  id: string;
  device_id: string;
  url: string;
  day: string;
  is_blocked: Generated<Bool>;
  visits: Generated<number>;
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
  status: "pending" | "done" | "gave_up";
  next_attempt_at: string;
  updated_at: string;
}

export type DeviceCommand = Selectable<DeviceCommandsTable>;

// ---- accounts (migration 2026-11-21T02-accounts) ----

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: string;
}

export interface UsedLinksTable {
  id: string;
  purpose: string;
  used_at: string;
  expires_at: string;
}

export interface OtpCodesTable {
  id: string;
  parent_id: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export interface SigninTokensTable {
  id: string;
  parent_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  hits: Generated<number>;
}
