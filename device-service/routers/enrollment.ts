import { createEnrollmentToken } from "../enrollment";
import { kidProcedure, router } from "../trpc";

export const enrollmentRouter = router({
  /** A one-time token for the kid's new phone; the dashboard renders enrollUrl as a QR code. */
  createToken: kidProcedure.mutation(async ({ ctx }) => {
    const { token, expiresAt } = await createEnrollmentToken(ctx.db, { profileId: ctx.kid.id, parentId: ctx.parent.id });
    const base = (ctx.publicUrl ?? "http://localhost:3000").replace(/\/$/, "");
    return { token, expiresAt, enrollUrl: `${base}/device-api/enroll?token=${encodeURIComponent(token)}` };
  }),
});
