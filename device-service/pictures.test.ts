import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { NOT_A_PICTURE, PICTURE_SIDE, PICTURE_UNREADABLE } from "./pictures";
import { reencodePicture } from "./pictures.server";

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

describe("a kid's picture is re-encoded before it is stored (issue 52)", () => {
  it("a large photo with EXIF (location, orientation) becomes a JPEG of at most 512 px, upright, with no metadata", async () => {
    // 3000 × 2000, stored sideways (orientation 6: the camera was turned), with a GPS-ish description.
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#3a7" } })
      .withExif({ IFD0: { ImageDescription: "Lat 51.5072 N Lon 0.1276 W home" } })
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(photo.includes(Buffer.from("51.5072"))).toBe(true);
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    const r = await reencodePicture(photo);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.mime).toBe("image/jpeg");
    const meta = await sharp(r.bytes).metadata();
    expect(meta.format).toBe("jpeg");
    // Turned upright: the long side is now the height.
    expect(meta.height).toBe(PICTURE_SIDE);
    expect(meta.width).toBe(Math.round((PICTURE_SIDE * 2000) / 3000));
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(r.bytes.includes(Buffer.from("51.5072"))).toBe(false);
    expect(r.bytes.length).toBeLessThan(200 * 1024);
  });

  it("a small PNG with transparency keeps its size and gets a white background", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const r = await reencodePicture(png);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { data, info } = await sharp(r.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([40, 30]);
    expect(data[0]).toBeGreaterThan(240);
  });

  it("refuses what is not a picture, a broken one and a decompression bomb, each with a message", async () => {
    expect(await reencodePicture(Buffer.from("not really a picture"))).toEqual({ ok: false, message: NOT_A_PICTURE });
    const broken = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(100)]);
    expect(await reencodePicture(broken)).toEqual({ ok: false, message: PICTURE_UNREADABLE });
    // A PNG whose header claims 60,000 × 60,000 pixels (3.6 gigapixels) in a few bytes: never decoded.
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(60_000, 0);
    ihdr.writeUInt32BE(60_000, 4);
    ihdr.writeUInt8(8, 8); // bit depth
    ihdr.writeUInt8(2, 9); // RGB
    const bomb = Buffer.concat([
      Buffer.from("89504e470d0a1a0a", "hex"),
      chunk("IHDR", ihdr),
      chunk("IDAT", Buffer.from("789c030000000001", "hex")),
      chunk("IEND", Buffer.alloc(0)),
    ]);
    const t0 = Date.now();
    expect(await reencodePicture(bomb)).toEqual({ ok: false, message: PICTURE_UNREADABLE });
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});
