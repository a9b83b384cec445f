import type { Migration } from "kysely";
import * as initial from "./2026-11-21T00-initial";
import * as deviceService from "./2026-11-21T01-device-service";
import * as accounts from "./2026-11-21T02-accounts";
import * as viewRevisions from "./2026-11-22T00-view-revisions";

/** Every migration, in order. Names are ISO-dated so they sort. Later issues append here. */
export const migrations: Record<string, Migration> = {
  "2026-11-21T00-initial": initial,
  "2026-11-21T01-device-service": deviceService,
  "2026-11-21T02-accounts": accounts,
  "2026-11-22T00-view-revisions": viewRevisions,
};
