import type { ActionFunction, LoaderFunction, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "#db/unavailable";
import { outageLogger } from "#device-service/outage";
import type { Logger } from "#core/log";

/**
 * A database outage in a Remix loader or action: withOutageResponses(build) turns the error into a thrown 503
 * Response, so the root ErrorBoundary shows the message (a page for documents, the same for client
 * navigations). Express handlers and /healthz answer theirs in device-service/outage.ts.
 */

export function unavailableResponse(): Response {
  return new Response(DATABASE_UNAVAILABLE_MESSAGE, {
    status: 503,
    statusText: "Service Unavailable",
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(RETRY_AFTER_SECONDS) },
  });
}

/** The Remix build with every loader and action answering 503 when the database is unreachable. */
export function withOutageResponses(build: ServerBuild, log: Logger): ServerBuild {
  const report = outageLogger(log);
  type DataFunction = (args: LoaderFunctionArgs) => ReturnType<LoaderFunction>;
  const guard = <F extends LoaderFunction | ActionFunction>(fn: F): F => {
    const call = fn as DataFunction;
    const guarded: DataFunction = async (args) => {
      try {
        return await call(args);
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        report(new URL(args.request.url).pathname, err);
        throw unavailableResponse();
      }
    };
    return guarded as F;
  };
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const m = route.module;
    routes[id] = {
      ...route,
      module: { ...m, ...(m.loader ? { loader: guard(m.loader) } : {}), ...(m.action ? { action: guard(m.action) } : {}) },
    };
  }
  return { ...build, routes };
}
