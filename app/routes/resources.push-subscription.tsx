import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { cachedVapidKeys } from "#core/vapid.server";
import { deletePushSubscription, hasPushEndpoint, savePushSubscription } from "#db/queries/push-subscriptions";
import { MAX_PUSH_BROWSERS, pushEndpointRules, subscriptionSchema } from "~/components/alerts/push-subscription.server";
import { describeAgent } from "~/rules/user-agent";
import { requireParent, safeRedirect } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * Web Push subscriptions of the signed-in parent (issue 55). GET: the VAPID public key a browser subscribes with, and
 * whether `?endpoint=` is one of this parent's browsers. POST (same-origin, server/web.ts):
 * - `intent=subscribe` endpoint, p256dh, auth: store this browser (JSON answer; 400 with a message when refused);
 * - `intent=unsubscribe` endpoint: forget this browser (JSON);
 * - `intent=remove` id, redirectTo: forget one browser of the list (a plain form: back to the page with a toast).
 */

const NO_STORE = { "Cache-Control": "no-store" };

const IntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe") }).passthrough(),
  z.object({ intent: z.literal("unsubscribe"), endpoint: z.string().trim().min(1).max(2048) }),
  z.object({ intent: z.literal("remove"), id: z.string().trim().min(1).max(64), redirectTo: z.string().max(512).optional() }),
]);

export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const services = args.context.services;
  const endpoint = new URL(args.request.url).searchParams.get("endpoint");
  const on = endpoint ? await hasPushEndpoint(services.db, parent.id, endpoint.slice(0, 2048)) : false;
  return json({ publicKey: cachedVapidKeys(services.env).publicKey, on }, { headers: NO_STORE });
}

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const { db, env, log } = args.context.services;
  const form = Object.fromEntries(await args.request.formData());
  const parsed = IntentSchema.safeParse(form);
  if (!parsed.success) return json({ ok: false, message: "Something went wrong. Please try again." }, { status: 400, headers: NO_STORE });
  const v = parsed.data;
  switch (v.intent) {
    case "subscribe": {
      const sub = subscriptionSchema(pushEndpointRules(env)).safeParse(form);
      if (!sub.success) return json({ ok: false, message: sub.error.issues[0]!.message }, { status: 400, headers: NO_STORE });
      const label = describeAgent(args.request.headers.get("User-Agent"));
      const result = await savePushSubscription(db, parent.id, { ...sub.data, label }, MAX_PUSH_BROWSERS);
      if (result === "another-account") {
        log("warn", "push subscription held by another account", { parent: parent.id, host: new URL(sub.data.endpoint).host });
        return json(
          {
            ok: false,
            message: "This browser already gets notifications for another Kids Portal account. Turn them off there first, then try again.",
          },
          { status: 409, headers: NO_STORE },
        );
      }
      if (result === "too-many")
        return json(
          {
            ok: false,
            message: `You already get notifications in ${MAX_PUSH_BROWSERS} browsers. Turn one off below, then try again.`,
          },
          { status: 409, headers: NO_STORE },
        );
      return json({ ok: true, message: "Notifications are on for this browser." }, { headers: NO_STORE });
    }
    case "unsubscribe": {
      await deletePushSubscription(db, parent.id, { endpoint: v.endpoint });
      return json({ ok: true, message: "Notifications are off for this browser." }, { headers: NO_STORE });
    }
    case "remove": {
      const done = await deletePushSubscription(db, parent.id, { id: v.id });
      return redirectWithToast(safeRedirect(v.redirectTo, "/alert-settings"), {
        type: done ? "success" : "error",
        message: done ? "That browser will no longer get notifications." : "That browser was already removed.",
      });
    }
  }
}
