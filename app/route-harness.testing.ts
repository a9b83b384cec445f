import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { parseEnv } from "#core/env.server";
import { startHarness, type Harness, type HarnessOptions } from "../server/harness.testing";
import { readToast, type Toast } from "~/utils/toast.server";

process.env.SESSION_SECRET ??= "t".repeat(40);
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "route-test-"));

type RouteFn = (args: { request: Request; context: AppLoadContext; params: object }) => unknown;
type Form = Record<string, string> | URLSearchParams;

/**
 * Route loaders and actions called as a signed-in parent, over the device-service test harness (the demo family
 * and one other family): each call gets its own load context, so nothing cached for one request reaches the next.
 */
export interface RouteHarness {
  h: Harness;
  /** Bearer tokens of the demo parent and of the other family's parent. */
  token: string;
  otherToken: string;
  /** Extra load-context fields for every call (e.g. `pageCacheUntil`). */
  extra: Partial<AppLoadContext>;
  /** GET (no form) or POST (form) `url` to a loader or action; a thrown Response is returned. */
  call(fn: unknown, url: string, o?: { token?: string; form?: Form; headers?: Record<string, string> }): Promise<Response>;
  /** The toast a redirect set, read back from its cookie. */
  toastOf(res: Response): Promise<Toast | null>;
  close(): Promise<void>;
}

/** `o`: the device-service harness's options (e.g. `{ dialect: "postgres" }`). */
export async function startRouteHarness(o: HarnessOptions = {}): Promise<RouteHarness> {
  const h = await startHarness(o);
  const env = parseEnv({ NODE_ENV: "test", DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: "t".repeat(40) });
  const base = { services: { env, db: h.tdb.db, device: h.caller, log: () => {} }, cspNonce: "n" };
  const rh: RouteHarness = {
    h,
    token: await h.sessionFor(h.demo.id),
    otherToken: await h.sessionFor(h.other.id),
    extra: {},
    async call(fn, url, o = {}) {
      const form = o.form instanceof URLSearchParams ? o.form : o.form ? new URLSearchParams(o.form) : undefined;
      const request = new Request(`http://localhost${url}`, {
        method: form ? "POST" : "GET",
        headers: {
          Authorization: `Bearer ${o.token ?? rh.token}`,
          ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
          ...o.headers,
        },
        body: form,
      });
      try {
        return (await (fn as RouteFn)({ request, context: { ...base, ...rh.extra } as unknown as AppLoadContext, params: {} })) as Response;
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    },
    async toastOf(res) {
      const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
      return (await readToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast;
    },
    close: () => h.close(),
  };
  return rh;
}
