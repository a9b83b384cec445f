import { redirect, type AppLoadContext } from "@remix-run/node";
import { findKidDevice } from "#db/queries/dashboard/overview";
import { listKidsForParent } from "#db/queries/kids";
import { requireKidAccess, requireParent } from "~/utils/auth.server";

/**
 * A kid page's guard: the parent may see this kid (own or accepted delegation) and the serial number is that
 * kid's phone. Anything else, including another family's ids, is a 404 that reveals nothing.
 */
export async function requireKidDevice(
  args: { request: Request; context: AppLoadContext },
  profileId: string | null,
  serialNumber: string | null,
) {
  if (profileId === null && serialNumber === null && args.request.method === "GET") await redirectToFirstKid(args);
  const db = args.context.services.db;
  // The phone is read beside the access check, which reads the kid (one wait, not two); nothing read is returned or
  // looked at unless the check passed, and a refusal is the same 404 whatever was found.
  const [auth, device] = await Promise.all([
    requireKidAccess(args, profileId),
    profileId && serialNumber ? findKidDevice(db, profileId, serialNumber) : undefined,
  ]);
  if (!device) throw new Response("Device not found.", { status: 404 });
  return { ...auth, device };
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
