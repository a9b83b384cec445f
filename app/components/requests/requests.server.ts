import { redirect, type AppLoadContext } from "@remix-run/node";
import type { Parent } from "#db/schema";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { installIntent } from "~/components/store/install.server";

/** Where an answer goes back to: the page without its popup and its draft. */
export function closedHref(request: Request): string {
  return hrefWith(request, { modal: null, id: null, confirm: null, category: null, limitOn: null, limit: null });
}

interface Answer {
  request: Request;
  context: AppLoadContext;
  parent: Parent;
  serialNumber: string;
  id: string;
}

/**
 * The install popup (the Play Store's, components/store/InstallModal.tsx): Save and Install with its limit, or Skip &
 * Install (limit off, 0 minutes; spec 2 §4); without JavaScript its switch and stepper keep a draft in the URL
 * (store/install.server.ts installIntent). A refusal goes back to the open popup; the approval closes it.
 */
export function approveInstall(a: Answer, form: FormData): Promise<Response> {
  return installIntent(a.request, form, (v, back) =>
    callDevice(
      a.context,
      a.parent,
      back,
      (d) => d.requests.approve({ serialNumber: a.serialNumber, id: a.id, enableDailyLimit: v.enabled, dailyLimitTime: v.minutes }),
      "Approved.",
      closedHref(a.request),
    ),
  );
}

export function approveUninstall(a: Answer): Promise<Response> {
  return callDevice(
    a.context,
    a.parent,
    closedHref(a.request),
    (d) => d.requests.approve({ serialNumber: a.serialNumber, id: a.id }),
    "Approved.",
  );
}

/**
 * Extend's Approve. When the app's category stops it anyway the service answers redirectToCategory with the
 * category: the popup stays open with the warning (kept in the URL), and no toast (spec 2 §4).
 */
export async function approveExtend(a: Answer, extendLimit: number | undefined): Promise<Response> {
  let category: string | null = null;
  const res = await callDevice(
    a.context,
    a.parent,
    closedHref(a.request),
    async (d) => {
      const r = await d.requests.approve({ serialNumber: a.serialNumber, id: a.id, extendLimit });
      if ("redirectToCategory" in r) category = r.data;
      return r;
    },
    "Approved.",
  );
  return category ? redirect(hrefWith(a.request, { modal: "extend", id: a.id, category })) : res;
}

export function reject(a: Answer): Promise<Response> {
  return callDevice(
    a.context,
    a.parent,
    closedHref(a.request),
    (d) => d.requests.reject({ serialNumber: a.serialNumber, id: a.id }),
    "Rejected.",
  );
}
