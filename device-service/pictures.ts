/**
 * Kid pictures: the one place that decides what an uploaded picture is. The device service stores the type
 * read from the bytes, never the caller's claim (a browser's, the web form's or a remote web tier's); the
 * web form uses the same function to answer in the form before calling the service.
 */

/** Spec 1: the kid picture is at most 3 MB. */
export const MAX_PICTURE_BYTES = 3 * 1024 * 1024;

export type PictureType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export const NOT_A_PICTURE = "The picture must be a PNG, JPEG, GIF or WebP image.";

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
