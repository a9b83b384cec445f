import type { Selectable } from "kysely";

// ---- the open API (migration 2026-11-29T07-api-tokens); part of `Database` in schema.ts ----

export type ApiTokenScope = "read" | "control";

/**
 * A parent's personal access token for /api/v1 (docs/api.md). Only the SHA-256 of the token is kept (`token_hash`);
 * the token itself (`kp_` and 43 base64url characters) is shown once, when it is made. A token acts as its parent:
 * own kids and kids delegated to them and accepted, nothing more. `read` refuses every call that changes something.
 */
export interface ApiTokensTable {
  id: string;
  parent_id: string;
  name: string;
  scope: ApiTokenScope;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export type ApiToken = Selectable<ApiTokensTable>;

export interface ApiDatabase {
  api_tokens: ApiTokensTable;
}
