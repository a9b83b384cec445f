/**
 * Kid pictures: the one place that decides what an uploaded picture is. The device service stores the type
 * read from the bytes, never the caller's claim (a browser's, the web form's or a remote web tier's); the
 * web form uses the same function to answer in the form before calling the service.
 */

/** A picture the device service is handed (tRPC `kids.updateProfile`) is at most 3 MB; the web tier sends far less. */
export const MAX_PICTURE_BYTES = 3 * 1024 * 1024;

/**
 * A photo as a parent uploads it from a phone (issue 52): up to 20 MB. It is never stored as sent: the browser
 * scales it down first when it can (JavaScript on), and the server always re-encodes it
 * (`pictures.server.ts`: JPEG, at most PICTURE_SIDE pixels on its long side, no metadata — no EXIF location).
 */
export const MAX_UPLOAD_PICTURE_BYTES = 20 * 1024 * 1024;
export const PICTURE_TOO_LARGE = "The picture must be 20 MB or smaller.";
/** The stored picture's long side in pixels (the dashboard shows it at 64 px or less). */
export const PICTURE_SIDE = 512;

export type PictureType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export const NOT_A_PICTURE = "The picture must be a PNG, JPEG, GIF or WebP image.";
export const PICTURE_UNREADABLE = "The picture could not be read. Please choose another photo (PNG, JPEG, GIF or WebP).";

/** The picture's real type from its first bytes (never the browser's claim). */
export function sniffImageType(bytes: Uint8Array): PictureType | null {
  const b = bytes;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (
    b.length >= 6 &&
    b[0] === 0x47 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x38 &&
    (b[4] === 0x37 || b[4] === 0x39) &&
    b[5] === 0x61
  )
    return "image/gif";
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  )
    return "image/webp";
  return null;
}
