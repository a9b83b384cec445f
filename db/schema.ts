import type { Generated, Insertable, Selectable, Updateable } from "kysely";
import type { AppsDatabase } from "./schema-apps";
import type { TimeRulesDatabase } from "./schema-time-rules";
import type { PaymentsDatabase } from "./schema-payments";
import type { AccountsDatabase } from "./schema-accounts";
import type { ReportsDatabase } from "./schema-reports";
import type { StoreDatabase } from "./schema-store";
import type { DeviceServiceDatabase } from "./schema-device-service";
import type { WebFilterDatabase } from "./schema-web-filter";
import type { WebhooksDatabase } from "./schema-webhooks";
import type { PushDatabase } from "./schema-push";
import type { AlertsDatabase } from "./schema-alerts";
import type { ApiDatabase } from "./schema-api";
import type { PlacesDatabase } from "./schema-places";

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
  /** The family's IANA time zone: when a report's week or month closes, and the clock of time rules (migrations 2026-11-23T04-reports, T07-time-rules). */
  time_zone: Generated<string>;
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
  /** Who last turned sleep mode on or off, and who last edited the profile (parent ids; migration 2026-11-23T01-delegation). */
  sleep_mode_by: string | null;
  updated_by: string | null;
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
  /** Who last changed protection, full access or the map flag (parent id). */
  settings_updated_by: string | null;
  /** Set when the phone is removed from the account (replaced or its kid removed); its history stays. */
  unenrolled_at: Generated<string | null>;
  /**
   * The parent whose enrollment code the phone's credential came from; null for phones enrolled before this was kept
   * (read as the kid's own parent). Revoking a delegate's access removes the phones they enrolled.
   */
  enrolled_by: Generated<string | null>;
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
  /** Free storage the phone last reported, in MB (store installs that failed for storage resume when it grows). */
  free_storage_mb: Generated<number | null>;
  /** The device-service process holding the phone's socket while online (device-service/socket/presence.ts). */
  online_process: Generated<string | null>;
  /** The phone's Private DNS as it last reported it: 'off' | 'opportunistic' | 'hostname'; null until reported (issue 54 item 4). */
  private_dns_mode: Generated<string | null>;
  private_dns_hostname: Generated<string | null>;
  /** When the phone first reported its current Private DNS setting. */
  private_dns_changed_at: Generated<string | null>;
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

export type DisabledType = "Manually" | "Overuse" | "Category Overuse" | "Cronjob" | "Global Daily Limit Reach" | "Session Break";

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
  /** Who last changed this app's limit or state (parent id). */
  updated_by: string | null;
  /** FORCE_INSTALLED when a parent installed it from the store (migration 2026-11-23T06-store). */
  install_type: Generated<string | null>;
  install_state: Generated<InstallState | null>;
  request_id: Generated<string | null>;
}

/** A store install's progress: sent to the phone, on it, or refused with a reason (spec 2 §8). */
export type InstallState = "installing" | "installed" | "failed";

export interface CategoryLimitsTable {
  id: string;
  profile_id: string;
  category: string;
  enable_daily_limit: Generated<Bool>;
  daily_limit_minutes: Generated<number>;
  is_category_enabled: Generated<Bool>;
  updated_at: string;
  updated_by: string | null;
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
  updated_by: string | null;
}

export interface LocationSettingsTable {
  device_id: string;
  enable_location_tracking: Generated<Bool>;
  location_tracking_interval: Generated<number>;
  updated_at: string;
  updated_by: string | null;
}

export interface DeviceLocationsTable {
  id: string;
  device_id: string;
  latitude: number;
  longitude: number;
  device_time: string;
  received_at: string;
  /** The fix's accuracy in metres, when the phone says it (migration 2026-11-29T04-places). */
  accuracy_m: Generated<number | null>;
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
  /** The verified account that accepted or rejected (migration 2026-11-23T01-delegation). */
  responded_by: string | null;
  responded_at: string | null;
  revoked_at: string | null;
}

export interface DelegationKidsTable {
  delegation_id: string;
  profile_id: string;
}

export interface Database
  extends DeviceServiceDatabase,
    PaymentsDatabase,
    AccountsDatabase,
    AppsDatabase,
    ReportsDatabase,
    TimeRulesDatabase,
    StoreDatabase,
    WebFilterDatabase,
    WebhooksDatabase,
    PushDatabase,
    AlertsDatabase,
    ApiDatabase,
    PlacesDatabase {
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
}

export type Parent = Selectable<ParentsTable>;
export type NewParent = Insertable<ParentsTable>;
export type ParentUpdate = Updateable<ParentsTable>;
export type KidProfile = Selectable<KidProfilesTable>;
export type Device = Selectable<DevicesTable>;
export type DeviceStatus = Selectable<DeviceStatusTable>;
export type CatalogApp = Selectable<CatalogAppsTable>;
export type ProfileApp = Selectable<ProfileAppsTable>;
