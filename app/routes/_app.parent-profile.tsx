import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { listAccessReceived, listDelegatedAccess, listOwnKids } from "#db/queries/delegations";
import { listParentNotifications, markParentNotificationsRead, updateParentName } from "#db/queries/parent-profile";
import { addKid } from "~/components/dashboard/add-kid.server";
import { answer, invite, resendVerification, revoke } from "~/components/profile/delegation.server";
import { ProfileView, type ProfileActionData } from "~/components/profile/ProfileView";
import { addAccessSchema, CONFIRMS, nameSchema } from "~/components/profile/schemas";
import dashboardStyles from "../styles/dashboard.css?url";
import profileStyles from "../styles/profile.css?url";
import { checkDelegateForm, emailDomain } from "~/rules/delegation";
import { requireParent } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";
import { TIME_ZONES } from "#core/report-periods";
import { timeZone as timeZoneSchema } from "#core/time-values";
import { familyTimeZone } from "#db/queries/time-zone";
import { callDevice } from "~/components/dashboard/device.server";
import { getHomeAssistantSettings, setHomeAssistantSettings, topicPrefixTaken } from "#db/queries/webhooks";
import { defaultTopicPrefix } from "#core/webhooks";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: profileStyles },
];
export const meta: MetaFunction = () => [{ title: "Parent Profile · Kids Portal" }];

const HERE = "/parent-profile";
const idSchema = z.string().trim().min(1).max(64);

/**
 * Spec 1 §2 /parent-profile: name and email, the parent's kids with "Add a kid" (?modal=add-kid, issue 11),
 * delegation tables, the add modal (?modal=add) and the confirm modal (?confirm=revoke|reject&id=…).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const db = args.context.services.db;
  const url = new URL(args.request.url);
  const [ownKids, given, received, notifications, timeZone, homeAssistant] = await Promise.all([
    listOwnKids(db, parent.id),
    listDelegatedAccess(db, parent.id),
    listAccessReceived(db, parent.email),
    listParentNotifications(db, parent.email, 10),
    familyTimeZone(db, parent.id),
    getHomeAssistantSettings(db, parent.id),
  ]);
  if (notifications.some((n) => !n.readAt)) await markParentNotificationsRead(db, parent.email);
  const confirmKind = (CONFIRMS as readonly string[]).includes(url.searchParams.get("confirm") ?? "")
    ? (url.searchParams.get("confirm") as (typeof CONFIRMS)[number])
    : null;
  const confirmId = url.searchParams.get("id");
  // A confirm modal only for a row of this parent's own lists (the action checks again).
  const confirmRow =
    confirmKind === "revoke"
      ? given.find((d) => d.id === confirmId)
      : confirmKind === "reject"
        ? received.find((d) => d.id === confirmId)
        : undefined;
  return json({
    parent: { name: parent.name, email: parent.email, domain: emailDomain(parent.email), verified: Boolean(parent.email_verified_at) },
    ownKids,
    given,
    received,
    notifications,
    timeZone: { saved: timeZone, zones: TIME_ZONES },
    homeAssistant: {
      available: Boolean(args.context.services.env.MQTT_URL),
      enabled: homeAssistant?.enabled ?? false,
      topicPrefix: homeAssistant?.topicPrefix ?? defaultTopicPrefix(parent.id),
      discoveryPrefix: args.context.services.env.HOME_ASSISTANT_DISCOVERY_PREFIX,
    },
    modal:
      url.searchParams.get("modal") === "add"
        ? ("add" as const)
        : url.searchParams.get("modal") === "add-kid"
          ? ("add-kid" as const)
          : null,
    currentYear: new Date().getUTCFullYear(),
    confirm: confirmKind && confirmRow ? { kind: confirmKind, row: confirmRow } : null,
  });
}

const Intent = z.enum(["name", "add", "add-kid", "revoke", "accept", "reject", "resend-verification", "time-zone", "home-assistant"]);

/** An MQTT topic prefix a family may publish under: no wildcards, no empty levels, not a system ($) topic. */
const topicPrefixSchema = z
  .string()
  .trim()
  .min(1, "Please enter a topic prefix.")
  .max(100, "The topic prefix is too long (100 characters at most).")
  .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, "Use letters, digits, - and _, with / between levels (no spaces, + or #).");

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const { services } = args.context;
  const formData = await args.request.formData();
  const intent = Intent.safeParse(formData.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  switch (intent.data) {
    case "name": {
      const submission = parseWithZod(formData, { schema: nameSchema });
      if (submission.status !== "success") return json<ProfileActionData>({ intent: "name", result: submission.reply() }, { status: 400 });
      await updateParentName(services.db, parent.id, submission.value.parentName);
      return redirectWithToast(HERE, { type: "success", message: "Your name has been saved." });
    }
    case "add": {
      // Delegation is the owner's alone: only their own kids can be chosen (checked again in the query).
      const submission = parseWithZod(formData, {
        schema: addAccessSchema.superRefine((v, ctx) => {
          const checked = checkDelegateForm(v, parent.email);
          if (!checked.ok) ctx.addIssue({ code: "custom", message: checked.message });
        }),
      });
      if (submission.status !== "success") return json<ProfileActionData>({ intent: "add", result: submission.reply() }, { status: 400 });
      const checked = checkDelegateForm(submission.value, parent.email);
      if (!checked.ok) throw new Error("unreachable: checked by the schema");
      const outcome = await invite(services, parent, checked.value);
      if (!outcome.ok)
        return json<ProfileActionData>({ intent: "add", result: submission.reply({ formErrors: [outcome.message] }) }, { status: 400 });
      return redirectWithToast(HERE, { type: "success", message: outcome.message });
    }
    case "add-kid":
      // The kid switcher's "Add a kid", here too: the new kid's dashboard opens on the phone's step.
      return addKid(services.db, parent, formData, services.webFilter);
    case "revoke":
    case "accept":
    case "reject": {
      const id = idSchema.safeParse(formData.get("id"));
      if (!id.success) throw new Response("Not found.", { status: 404 });
      const outcome =
        intent.data === "revoke"
          ? await revoke(services, parent, id.data)
          : await answer(services, parent, id.data, intent.data === "accept" ? "Accepted" : "Rejected");
      return redirectWithToast(HERE, { type: outcome.ok ? "success" : "error", message: outcome.message });
    }
    case "time-zone": {
      // The family's zone (issue 21): a name Intl knows; every kid's phone gets its policy again in it.
      const zone = timeZoneSchema.safeParse(formData.get("timeZone"));
      if (!zone.success) return json<ProfileActionData>({ intent: "time-zone", error: zone.error.issues[0]!.message }, { status: 400 });
      return callDevice(
        args.context,
        parent,
        `${HERE}#time-zone`,
        (d) => d.time.setTimeZone({ timeZone: zone.data }),
        undefined,
        `${HERE}#time-zone`,
      );
    }
    case "home-assistant": {
      // The family's Home Assistant bridge (issue 56 item 5): a prefix of its own, never another family's.
      const prefix = topicPrefixSchema.safeParse(formData.get("topicPrefix") ?? "");
      if (!prefix.success)
        return json<ProfileActionData>({ intent: "home-assistant", error: prefix.error.issues[0]!.message }, { status: 400 });
      if (await topicPrefixTaken(services.db, parent.id, prefix.data))
        return json<ProfileActionData>(
          { intent: "home-assistant", error: "Another family uses this topic prefix. Please choose another." },
          { status: 400 },
        );
      const enabled = formData.get("enabled") === "on";
      await setHomeAssistantSettings(services.db, parent.id, { enabled, topicPrefix: prefix.data });
      await services.homeAssistant
        ?.resync()
        .catch((err: Error) => services.log("warn", "home assistant resync failed", { error: err.message }));
      return redirectWithToast(`${HERE}#home-assistant`, {
        type: "success",
        message: enabled ? "Home Assistant is on for your kids." : "Home Assistant is off for your kids.",
      });
    }
    case "resend-verification": {
      const outcome = await resendVerification(services, parent);
      return redirectWithToast(HERE, { type: outcome.ok ? "success" : "error", message: outcome.message });
    }
  }
}

export default function ParentProfile() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <ProfileView data={data} actionData={actionData ?? null} />;
}
