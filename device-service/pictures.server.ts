/**
 * Re-encoding a kid's picture (issue 52) with sharp (libvips, prebuilt binaries from npm): whatever a parent
 * uploads, what is stored is a JPEG of at most PICTURE_SIDE pixels on its long side, turned upright by its EXIF
 * orientation, transparency on white, and with no metadata at all (sharp writes none unless asked): no EXIF
 * location, camera or time. The web form calls it before the device service is called (so a 20 MB photo travels
 * no further as 20 MB), and `kids.updateProfile` calls it again on what it is handed, from any caller.
 */
import type { Sharp, SharpInput, SharpOptions } from "sharp";
import { NOT_A_PICTURE, PICTURE_SIDE, PICTURE_UNREADABLE, sniffImageType } from "./pictures";

/** Decompression bombs: a picture of more pixels than this is not decoded (a 108-megapixel phone photo is). */
export const MAX_PICTURE_PIXELS = 120_000_000;

type SharpFn = (input: SharpInput, options: SharpOptions) => Sharp;
let loading: Promise<SharpFn> | undefined;
/** sharp (a native library) is loaded on the first picture, not when a process starts (decision 005). */
function loadSharp(): Promise<SharpFn> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    // Each picture is decoded once: libvips keeps no decoded images between calls, and one picture uses one
    // thread (the machine's other core keeps serving pages).
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

export type Reencoded = { ok: true; mime: "image/jpeg"; bytes: Buffer } | { ok: false; message: string };

export async function reencodePicture(bytes: Uint8Array): Promise<Reencoded> {
  if (!sniffImageType(bytes)) return { ok: false, message: NOT_A_PICTURE };
  const sharp = await loadSharp(); // a missing native library is the operators' error, not the parent's picture
  try {
    const out = await sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS, failOn: "error", animated: false })
      .rotate()
      .resize({ width: PICTURE_SIDE, height: PICTURE_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    return { ok: true, mime: "image/jpeg", bytes: out };
  } catch {
    return { ok: false, message: PICTURE_UNREADABLE };
  }
}
