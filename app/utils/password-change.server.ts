import { z } from "zod";
import type { AppLoadContext } from "@remix-run/node";
import type { Parent } from "#db/schema";
import { updateParentPassword } from "#db/queries/parents";
import { revokeAllSessions } from "#db/queries/sessions";
import { hashPassword, passwordProblem, verifyPassword } from "#core/password.server";
import { endStreams } from "./sse.server";

/** The change-password fields (spec 1 §7 users/change-password), for the page and POST /api/v1/users/change-password. */
export const ChangePasswordFields = {
  old_password: z.string({ required_error: "Current password is required." }),
  new_password: z.string({ required_error: "New password is required." }),
  confirm_password: z.string({ required_error: "Please confirm the new password." }),
};

/**
 * The server's checks (spec 1 §5 leaves them to it), as a refinement of either caller's schema: the current password,
 * the new one's strength, different from the old, and confirmed.
 */
export function changePasswordChecks(parent: Parent) {
  return async (v: { old_password: string; new_password: string; confirm_password: string }, ctx: z.RefinementCtx) => {
    if (!(await verifyPassword(parent.password_hash, v.old_password))) {
      ctx.addIssue({ code: "custom", path: ["old_password"], message: "Your current password is incorrect." });
      return;
    }
    const problem = passwordProblem(v.new_password);
    if (problem) ctx.addIssue({ code: "custom", path: ["new_password"], message: problem });
    else if (v.new_password === v.old_password)
      ctx.addIssue({ code: "custom", path: ["new_password"], message: "The new password must be different from the current one." });
    if (v.new_password !== v.confirm_password)
      ctx.addIssue({ code: "custom", path: ["confirm_password"], message: "New password and confirm password do not match." });
  };
}

/** Stores the new password and ends every session of the parent (and their live streams). */
export async function applyPasswordChange(services: AppLoadContext["services"], parent: Parent, newPassword: string): Promise<void> {
  await updateParentPassword(services.db, parent.id, await hashPassword(newPassword));
  await revokeAllSessions(services.db, parent.id);
  await endStreams(services, { parentIds: [parent.id] }, "password-changed");
}

export const PASSWORD_CHANGED_MESSAGE = "Your password has been changed. Please sign in again.";
