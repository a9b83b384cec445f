import type { AppLoadContext } from "@remix-run/node";
import { TRPCError } from "@trpc/server";
import { publicMessage } from "#device-service/errors";
import type { Parent } from "#db/schema";
import { redirectWithToast } from "~/utils/toast.server";
import type { DeviceCaller } from "#device-service/caller";

/**
 * Calls the device service as this parent and turns the outcome into a toast carried through a redirect:
 * success shows the service's respones_msg, a TRPCError its message in plain words (validation failures in
 * the field's terms, never zod's JSON; spec 1 §8).
 */
export async function callDevice<T extends { respones_msg?: string }>(
  context: AppLoadContext,
  parent: Parent,
  back: string,
  call: (device: DeviceCaller) => Promise<T>,
  fallbackMessage = "Saved.",
  successHref: string = back,
): Promise<Response> {
  try {
    const result = await call(context.services.device({ id: parent.id, email: parent.email, role: parent.role }));
    return await redirectWithToast(successHref, { type: "success", message: result?.respones_msg || fallbackMessage });
  } catch (err) {
    // A Response thrown by the call is the route's own answer (e.g. a 404 for ids the parent may not act on).
    if (err instanceof Response) throw err;
    if (err instanceof TRPCError && err.code !== "INTERNAL_SERVER_ERROR")
      return redirectWithToast(back, { type: "error", message: publicMessage(err) });
    context.services.log("error", "device service call failed", { error: err instanceof Error ? err.message : String(err) });
    return redirectWithToast(back, { type: "error", message: "Something went wrong. Please try again." });
  }
}

/** The current URL as a same-site path, with the given params changed (null removes). */
export function hrefWith(request: Request, changes: Record<string, string | null>): string {
  const url = new URL(request.url);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  url.searchParams.delete("index");
  url.searchParams.delete("_data");
  const qs = url.searchParams.toString();
  return `${url.pathname}${qs ? `?${qs}` : ""}`;
}
