// ---- the Play Store (migration 2026-11-23T06-store); part of `Database` in schema.ts ----

/** Spec 2 §3 "Master application": the store's record of an app once a parent installs it for any kid. */
export interface MasterApplicationsTable {
  product_id: string;
  package_name: string;
  app_icon: string | null;
  /** The playStoreDetail fields at the time of the first install (JSON). */
  application_details: string;
  /** Android */
  type: string;
  created_at: string;
  updated_at: string;
}

export interface StoreDatabase {
  master_applications: MasterApplicationsTable;
}
