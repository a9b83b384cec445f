/**
 * The kid's picture: its size limits, messages and real type (read from its bytes) — the device service's rule,
 * one place for the browser's check, the action's and the service's. Re-encoding is server-only:
 * `#device-service/pictures.server`.
 */
import { MAX_UPLOAD_PICTURE_BYTES, PICTURE_TOO_LARGE } from "#device-service/pictures";

export {
  MAX_PICTURE_BYTES,
  MAX_UPLOAD_PICTURE_BYTES,
  NOT_A_PICTURE,
  PICTURE_SIDE,
  PICTURE_TOO_LARGE,
  PICTURE_UNREADABLE,
  sniffImageType,
} from "#device-service/pictures";

/** A chosen file over the upload limit gets the message; anything else (no file, a small one) passes here. */
export function pictureSizeError(size: number): string | null {
  return size > MAX_UPLOAD_PICTURE_BYTES ? PICTURE_TOO_LARGE : null;
}
