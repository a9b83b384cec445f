import type { Migration } from "kysely";
import * as initial from "./2026-11-21T00-initial";
import * as deviceService from "./2026-11-21T01-device-service";
import * as accounts from "./2026-11-21T02-accounts";
import * as viewRevisions from "./2026-11-22T00-view-revisions";
import * as payments from "./2026-11-23T00-payments";
import * as delegation from "./2026-11-23T01-delegation";
import * as apps from "./2026-11-23T02-apps";
import * as logs from "./2026-11-23T03-logs";
import * as reports from "./2026-11-23T04-reports";
import * as unenroll from "./2026-11-23T05-unenroll";
import * as store from "./2026-11-23T06-store";
import * as timeRules from "./2026-11-23T07-time-rules";
import * as requests from "./2026-11-23T09-requests";
import * as devicePresence from "./2026-11-23T11-device-presence";
import * as usageStatementTriggers from "./2026-11-23T13-usage-statement-triggers";
import * as storeOrder from "./2026-11-23T16-store-order";
import * as statusStatementTriggers from "./2026-11-26T00-status-statement-triggers";
import * as usageWritersBump from "./2026-11-25T00-usage-writers-bump";
import * as settingsViewRev from "./2026-11-27T00-settings-view-rev";
import * as actorNamesViewRev from "./2026-11-27T01-actor-names-view-rev";
import * as delegationsResponderIndex from "./2026-11-27T02-delegations-responder-index";
import * as devicesEnrolledBy from "./2026-11-28T00-devices-enrolled-by";
import * as telemetryLimits from "./2026-11-28T01-telemetry-limits";
import * as webFilterLists from "./2026-11-29T00-web-filter-lists";
import * as webFilterSettings from "./2026-11-29T01-web-filter-settings";
import * as webVisits from "./2026-11-29T02-web-visits";
import * as webhooks from "./2026-11-29T08-webhooks";
import * as pushSubscriptions from "./2026-11-29T06-push-subscriptions";
import * as devicePrivateDns from "./2026-11-29T03-device-private-dns";
import * as alerts from "./2026-11-29T05-alerts";
import * as apiTokens from "./2026-11-29T07-api-tokens";
import * as places from "./2026-11-29T04-places";

/** Every migration, in order. Names are ISO-dated so they sort. Later issues append here. */
export const migrations: Record<string, Migration> = {
  "2026-11-21T00-initial": initial,
  "2026-11-21T01-device-service": deviceService,
  "2026-11-21T02-accounts": accounts,
  "2026-11-22T00-view-revisions": viewRevisions,
  "2026-11-23T00-payments": payments,
  "2026-11-23T01-delegation": delegation,
  "2026-11-23T02-apps": apps,
  "2026-11-23T03-logs": logs,
  "2026-11-23T04-reports": reports,
  "2026-11-23T05-unenroll": unenroll,
  "2026-11-23T06-store": store,
  "2026-11-23T07-time-rules": timeRules,
  "2026-11-23T09-requests": requests,
  "2026-11-23T11-device-presence": devicePresence,
  "2026-11-23T13-usage-statement-triggers": usageStatementTriggers,
  "2026-11-23T16-store-order": storeOrder,
  "2026-11-25T00-usage-writers-bump": usageWritersBump,
  "2026-11-26T00-status-statement-triggers": statusStatementTriggers,
  "2026-11-27T00-settings-view-rev": settingsViewRev,
  "2026-11-27T01-actor-names-view-rev": actorNamesViewRev,
  "2026-11-27T02-delegations-responder-index": delegationsResponderIndex,
  "2026-11-28T00-devices-enrolled-by": devicesEnrolledBy,
  "2026-11-28T01-telemetry-limits": telemetryLimits,
  "2026-11-29T00-web-filter-lists": webFilterLists,
  "2026-11-29T01-web-filter-settings": webFilterSettings,
  "2026-11-29T02-web-visits": webVisits,
  "2026-11-29T03-device-private-dns": devicePrivateDns,
  "2026-11-29T04-places": places,
  "2026-11-29T05-alerts": alerts,
  "2026-11-29T06-push-subscriptions": pushSubscriptions,
  "2026-11-29T07-api-tokens": apiTokens,
  "2026-11-29T08-webhooks": webhooks,
};
