import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { validationMessage } from "../core/values";

export const GENERIC_ERROR = "Something went wrong. Please try again.";
export const BATCH_LIMIT = 10;
export const TRPC_BODY_LIMIT_BYTES = 1024 * 1024;

/** Plain words for an error code whose own message is not meant for people. */
const BY_CODE: Partial<Record<TRPCError["code"], string>> = {
  PAYLOAD_TOO_LARGE: "The request is too large (at most 1 MB).",
  UNSUPPORTED_MEDIA_TYPE: "The request must be sent as JSON.",
  PARSE_ERROR: "The request could not be read.",
  METHOD_NOT_SUPPORTED: "This method is not allowed here.",
};

/**
 * What a person (a toast, an API caller) is told about a device-service error: validation failures in
 * plain words (never zod's JSON), our own messages as written, anything internal as a generic sentence.
 */
export function publicMessage(err: unknown): string {
  if (!(err instanceof TRPCError)) return GENERIC_ERROR;
  if (err.cause instanceof ZodError) return validationMessage(err.cause);
  if (err.code === "INTERNAL_SERVER_ERROR") return GENERIC_ERROR;
  if (err.code === "BAD_REQUEST" && /^Batch call exceeds/.test(err.message))
    return `At most ${BATCH_LIMIT} calls can be sent in one batch.`;
  const byCode = BY_CODE[err.code];
  if (byCode && (!err.message || err.message === err.code || /content-type|Unexpected|JSON/i.test(err.message))) return byCode;
  const text = err.message.trim();
  // Anything that still looks like serialized data is not for people.
  if (!text || text.startsWith("[") || text.startsWith("{"))
    return err.code === "BAD_REQUEST" ? "Please check what you entered." : GENERIC_ERROR;
  return text;
}
