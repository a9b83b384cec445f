import type { LoaderFunctionArgs } from "@remix-run/node";
import { getKidPicture } from "#db/queries/dashboard/overview";
import { requireKidAccess } from "~/utils/auth.server";

/** The kid's picture (`?profileId`), only for parents with access; its type was checked from its bytes on upload. */
export async function loader(args: LoaderFunctionArgs) {
  const profileId = new URL(args.request.url).searchParams.get("profileId");
  await requireKidAccess(args, profileId);
  const row = await getKidPicture(args.context.services.db, profileId!);
  if (!row?.picture || !row.picture_mime) throw new Response("No picture.", { status: 404 });
  return new Response(new Uint8Array(row.picture), {
    headers: {
      "Content-Type": row.picture_mime,
      // A child's photo: kept by no cache, the browser's included (a shared computer, a later sign-out).
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
