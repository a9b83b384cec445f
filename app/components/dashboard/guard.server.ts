import { redirect, type AppLoadContext } from "@remix-run/node";
import { findKidDevice } from "#db/queries/dashboard/overview";
import { listKidsForParent } from "#db/queries/kids";
import { requireKidAccess, requireParent } from "~/utils/auth.server";

/**
 * A kid page's guard: the parent may see this kid (own or accepted delegation) and the serial number is that
 * kid's phone. Anything else, including another family's ids, is a 404 that reveals nothing.
 */
export async function requireKidDevice(args: { request: Request; context: AppLoadContext }, profileId: string | null, serialNumber: string | null) {
  if (profileId === null && serialNumber === null && args.request.method === "GET") await redirectToFirstKid(args);
  const auth = await requireKidAccess(args, profileId);
  const device = serialNumber ? await findKidDevice(args.context.services.db, profileId!, serialNumber) : undefined;
  if (!device) throw new Response("Device not found.", { status: 404 });
  const kid = await args.context.services.db.selectFrom("kid_profiles").select(["id", "name", "sleep_mode"]).where("id", "=", profileId!).executeTakeFirstOrThrow();
  return { ...auth, device, kid };
}

export function kidQuery(profileId: string, serialNumber: string, key: "profileId" | "profile_id" = "profileId") {
  return new URLSearchParams({ [key]: profileId, serialNumber }).toString();
}

/**
 * A kid page opened without naming a kid (a typed or bookmarked `/apps`): the first kid with a phone, as the
 * dashboard would show it, in the page's own query keys; no kid with a phone yet: the dashboard, which offers
 * to add one. Never reached with an id in the URL, so it reveals nothing about other families.
 */
async function redirectToFirstKid(args: { request: Request; context: AppLoadContext }): Promise<never> {
  const { parent } = await requireParent(args);
  const kids = await listKidsForParent(args.context.services.db, parent);
  const kid = kids.find((k) => k.serialNumber);
  if (!kid?.serialNumber) throw redirect("/kids-device");
  const url = new URL(args.request.url);
  url.searchParams.set(url.pathname === "/device-info" ? "profile_id" : "profileId", kid.id);
  url.searchParams.set("serialNumber", kid.serialNumber);
  throw redirect(`${url.pathname}?${url.searchParams}`);
}
