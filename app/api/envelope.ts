import { TRPCError } from "@trpc/server";
import { ZodError, type ZodIssue } from "zod";
import { GENERIC_ERROR, publicMessage } from "#device-service/errors";
import { validationMessage } from "#core/values";

/**
 * The spec's reply envelope (spec 1 §7, spec 2 §7): every reply carries `respones_msg` (the spec's spelling), a
 * success the call's fields beside it, an error sometimes `is_logout: 1` (the token is no good: sign in again).
 */
export interface Envelope {
  respones_msg: string;
  is_logout?: 1;
  [field: string]: unknown;
}

/** A refusal the API answers as it is: status, message, and any fields the spec names for it (invalidEmail, …). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const MESSAGES = {
  signIn: "Please sign in again.",
  unknownToken: "This token is not valid. Please sign in again.",
  revokedToken: "This token was revoked. Please sign in again or make a new token.",
  expiredToken: "This token has expired. Please sign in again or make a new token.",
  readScope: "This token can only read. Use a token with the control scope to make changes.",
  operatorsOnly: "Operators only.",
  notJson: "The request must be sent as JSON (Content-Type: application/json).",
  notFound: "There is no such call. See /api/docs for the calls there are.",
  method: "This call does not take this method. See /api/docs.",
  rateLimited: "Too many calls with this token. Please wait a minute and try again.",
  tooLarge: "The request is too large (at most 64 KB).",
} as const;

/** HTTP status of each device-service error code (the pages turn the same errors into toasts). */
const STATUS: Partial<Record<TRPCError["code"], number>> = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

/** Zod's issues as one sentence a caller can act on: unknown fields named, wrong types said as such. */
export function inputMessage(error: ZodError): string {
  const first: ZodIssue | undefined = error.issues[0];
  if (!first) return "Please check what you sent.";
  const where = first.path.length ? first.path.join(".") : "the body";
  if (first.code === "unrecognized_keys") return `Unknown field${first.keys.length > 1 ? "s" : ""}: ${first.keys.join(", ")}.`;
  if (first.code === "invalid_type") {
    if (first.received === "undefined") return `${where} is required.`;
    return `${where} must be ${first.expected === "object" ? "a JSON object" : `a ${first.expected}`}, not ${first.received}.`;
  }
  const own = validationMessage(error);
  return own.startsWith("Please check ") ? `Please check ${where}: ${first.message.toLowerCase()}.`.replace(/\.\.$/, ".") : own;
}

/** Any error of a call as its envelope and status; what is not ours or the device service's is a generic 500. */
export function errorReply(err: unknown): { status: number; body: Envelope; internal: boolean } {
  if (err instanceof ApiError) {
    const body: Envelope = { respones_msg: err.message, ...err.fields };
    if (err.status === 401) body.is_logout = 1;
    return { status: err.status, body, internal: false };
  }
  if (err instanceof ZodError) return { status: 400, body: { respones_msg: inputMessage(err) }, internal: false };
  if (err instanceof TRPCError && err.code !== "INTERNAL_SERVER_ERROR") {
    const status = STATUS[err.code] ?? 400;
    const body: Envelope = { respones_msg: publicMessage(err) };
    if (status === 401) body.is_logout = 1;
    return { status, body, internal: false };
  }
  // A Response thrown by a page's guard (requireKidAccess's 404, requireOperator's 403): its status and words.
  if (err instanceof Response && err.status >= 400) return { status: err.status, body: { respones_msg: "" }, internal: false };
  return { status: 500, body: { respones_msg: GENERIC_ERROR }, internal: true };
}
