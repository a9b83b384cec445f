import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { editKidSchema } from "~/components/dashboard/schemas";
import { MAX_UPLOAD_PICTURE_BYTES, pictureSizeError, sniffImageType } from "./picture";

describe("picture type from bytes", () => {
  it.each([
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0], "image/png"],
    [[0xff, 0xd8, 0xff, 0xe0], "image/jpeg"],
    [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], "image/gif"],
    [[0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50], "image/webp"],
    [[0x3c, 0x73, 0x76, 0x67], null],
    [[0x25, 0x50, 0x44, 0x46], null],
    [[], null],
  ])("%j → %j", (bytes, type) => expect(sniffImageType(new Uint8Array(bytes))).toBe(type));
});

describe("a chosen picture's size (issue 52): the browser's check and the action's, one rule", () => {
  const form = (picture: File) => {
    const f = new FormData();
    for (const [k, v] of Object.entries({ intent: "edit-kid", profileId: "k1", kidName: "Leo", birthMonth: "8", birthYear: "2019" }))
      f.append(k, v);
    f.append("picture", picture);
    return f;
  };
  const bytes = (n: number) => new File([new Uint8Array(n)], "photo.jpg", { type: "image/jpeg" });

  it("over 20 MB: the message; up to 20 MB: no message", () => {
    expect(pictureSizeError(MAX_UPLOAD_PICTURE_BYTES + 1)).toBe("The picture must be 20 MB or smaller.");
    expect(pictureSizeError(MAX_UPLOAD_PICTURE_BYTES)).toBeNull();
    expect(pictureSizeError(5 * 1024 * 1024)).toBeNull();
  });

  it("the edit-kid form's schema refuses a picture over 20 MB on the picture field and keeps the rest", () => {
    const big = parseWithZod(form(bytes(MAX_UPLOAD_PICTURE_BYTES + 1)), { schema: editKidSchema(2026) });
    expect(big.status).toBe("error");
    expect(big.status === "error" ? big.error : null).toEqual({ picture: ["The picture must be 20 MB or smaller."] });
    expect(parseWithZod(form(bytes(4 * 1024 * 1024)), { schema: editKidSchema(2026) }).status).toBe("success");
  });
});
