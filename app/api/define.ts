import { z, type ZodTypeAny } from "zod";
import type { Request as ExpressRequest } from "express";
import type { Parent } from "#db/schema";
import type { DeviceCaller } from "#device-service/caller";
import type { AppServices } from "~/load-context";

/** Who may make a call: no one signed in, any signed-in parent (and their tokens), or operators only. */
export type CallAuth = "none" | "parent" | "operator";

/** How the caller proved who they are: a session token (the sign-in's) or a personal access token. */
export type Credential = { kind: "session"; token: string } | { kind: "token"; id: string; scope: "read" | "control" };

export interface CallContext {
  services: AppServices;
  req: ExpressRequest;
  /** The caller (null for calls with auth "none"). */
  parent: Parent | null;
  credential: Credential | null;
  /** The device service as this parent: authorisation lives in its procedures. */
  device: () => DeviceCaller;
  /**
   * The load-context arguments of the pages' guards (requireKidAccess, requireKidDevice, …) for this caller, so a
   * call runs the very checks a page does. The request carries the call's query as its URL.
   */
  guardArgs: () => { request: Request; context: import("@remix-run/node").AppLoadContext };
}

export interface ApiCall<I extends ZodTypeAny = ZodTypeAny, O extends z.AnyZodObject = z.AnyZodObject> {
  method: "get" | "post";
  /** Relative to /api/v1, as the spec writes it (with a leading slash). */
  path: string;
  tag: string;
  summary: string;
  /** Where the spec does not show the payload or reply: what this call chose, for the reference. */
  note?: string;
  auth: CallAuth;
  /** Changes something: refused to read-scoped tokens (403). */
  changes: boolean;
  /** The query (GET) or JSON body (POST), strict: unknown fields are a 400. */
  input: I;
  /** The reply's fields beside respones_msg. */
  reply: O;
  /** Extra headers the call needs (the kids app's API key). */
  headers?: z.AnyZodObject;
  /** Statuses this call may answer besides 200 (for the reference); 400, 401, 403, 413, 429 and 500 are on every call. */
  errors?: Partial<Record<404 | 409 | 402, string>>;
  handle: (ctx: CallContext, input: z.output<I>) => Promise<{ respones_msg: string } & z.input<O>>;
}

/** Keeps a call's types checked (input against handle, reply against what it returns). */
export function defineCall<I extends ZodTypeAny, O extends z.AnyZodObject>(call: ApiCall<I, O>): ApiCall {
  return call as unknown as ApiCall;
}

// ---------------------------------------------------------------- shared input pieces

/** A query-string boolean: "true" or "false" only. */
export const queryBool = z.enum(["true", "false"]).transform((v) => v === "true");
/** A query-string whole number. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, "Please send a whole number.")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
/** Any call's JSON body: an object, unknown fields refused. */
export const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();
export const query = body;
export const none = z.object({}).strict();
