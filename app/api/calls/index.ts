import type { ApiCall } from "../define";
import * as users from "./users";
import * as kidsApp from "./kids-app";
import * as device from "./device";
import * as requests from "./requests";
import * as apps from "./apps";
import * as application from "./application";

/** Every call of /api/v1, in the reference's order: the router, the OpenAPI document and the tests read this list. */
export const API_CALLS: ApiCall[] = [users, kidsApp, device, requests, apps, application].flatMap((m) =>
  Object.values(m).filter((v): v is ApiCall => typeof v === "object" && v !== null && "path" in v && "handle" in v),
);
