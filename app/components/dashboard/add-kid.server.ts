import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import type { DB } from "#db/index";
import type { WebFilterService } from "#web-filter/service";
import { createKidProfile } from "#db/queries/kids";
import { ensureFilterId } from "#db/queries/web-filter/settings";
import { redirectWithToast } from "~/utils/toast.server";
import { addKidSchema } from "./schemas";

/**
 * The "add-kid" intent, wherever the "Add a kid" popup is (the kid switcher on /kids-device, /parent-profile): a
 * new kid of the signed-in parent (no existing id is involved), then the new kid's dashboard with the phone's
 * step open; the web filter learns the kid's filter id. Bad input answers 400 with the form's errors, under `intent: "add-kid"`, for the popup to show.
 */
export async function addKid(db: DB, parent: { id: string }, formData: FormData, webFilter?: WebFilterService) {
  const submission = parseWithZod(formData, { schema: addKidSchema(new Date().getUTCFullYear()) });
  if (submission.status !== "success") return json({ intent: "add-kid" as const, result: submission.reply() }, { status: 400 });
  const id = await createKidProfile(db, parent.id, {
    name: submission.value.kidName,
    birthMonth: submission.value.birthMonth,
    birthYear: submission.value.birthYear,
  });
  // The new kid's filter id (its phone's Private DNS hostname), known to the resolver before the phone is set up.
  await ensureFilterId(db, id);
  await webFilter?.kidChanged(id);
  return redirectWithToast(`/kids-device?profileId=${id}&modal=enroll`, {
    type: "success",
    message: `${submission.value.kidName} was added. Now add their phone.`,
  });
}
