import type { AppLoadContext } from "@remix-run/node";
import { findKidDevice } from "#db/queries/dashboard/overview";
import { requireKidAccess } from "~/utils/auth.server";

/**
 * A kid page's guard: the parent may see this kid (own or accepted delegation) and the serial number is that
 * kid's phone. Anything else, including another family's ids, is a 404 that reveals nothing.
 */
export async function requireKidDevice(args: { request: Request; context: AppLoadContext }, profileId: string | null, serialNumber: string | null) {
  const auth = await requireKidAccess(args, profileId);
  const device = serialNumber ? await findKidDevice(args.context.services.db, profileId!, serialNumber) : undefined;
  if (!device) throw new Response("Device not found.", { status: 404 });
  const kid = await args.context.services.db.selectFrom("kid_profiles").select(["id", "name", "sleep_mode"]).where("id", "=", profileId!).executeTakeFirstOrThrow();
  return { ...auth, device, kid };
}

export function kidQuery(profileId: string, serialNumber: string, key: "profileId" | "profile_id" = "profileId") {
  return new URLSearchParams({ [key]: profileId, serialNumber }).toString();
}
