import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Response as ExpressResponse } from "express";
import { kidsParentLogin } from "#device-service/kids-login";
import type { DeviceServiceDeps } from "#device-service/context";
import { body, defineCall } from "../define";
import { ApiError } from "../envelope";

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const kidsParentLoginCall = defineCall({
  method: "post",
  path: "/users/kids/parent/login",
  tag: "Users",
  summary: "The kids app's parent sign-in (x-api-key)",
  note: "The spec does not show the payload: email, password, optional profileId (then a one-time enrollment token for that kid) and otp (the emailed code, on the second call when two-step verification is on). The same handler as /device-api/kids/parent/login; no session is made.",
  auth: "none",
  changes: true,
  headers: z.object({ "x-api-key": z.string({ required_error: "x-api-key is required." }).min(1).max(200) }).passthrough(),
  input: body({
    email: z.string().email().max(254),
    password: z.string().min(1).max(128),
    profileId: z.string().max(64).optional(),
    otp: z.string().trim().max(8).optional(),
  }),
  reply: z.object({
    data: z.object({
      parentName: z.string(),
      kidsList: z.array(z.object({ _id: z.string(), profile_name: z.string() })),
      enrollment: z.object({ token: z.string(), expiresAt: z.string() }).nullable(),
    }),
  }),
  handle: async (ctx, _input) => {
    if (!sameSecret(ctx.req.get("x-api-key") ?? "", ctx.services.env.KIDS_APP_API_KEY))
      throw new ApiError(401, "This app is not allowed to sign in.");
    // The kids app's own handler, answering into this call's envelope.
    const answer = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      let status = 200;
      const res = {
        status(code: number) {
          status = code;
          return res;
        },
        json(b: Record<string, unknown>) {
          resolve({ status, body: b });
          return res;
        },
      } as unknown as ExpressResponse;
      // It reads the database and the log only (device-service/kids-login.ts).
      const deps = { db: ctx.services.db, log: ctx.services.log } as unknown as DeviceServiceDeps;
      kidsParentLogin(deps, { env: ctx.services.env })(ctx.req, res, reject);
    });
    const { respones_msg, ...fields } = answer.body as { respones_msg: string } & Record<string, unknown>;
    if (answer.status !== 200) throw new ApiError(answer.status, respones_msg, fields);
    return { respones_msg, ...(fields as { data: never }) };
  },
});
