import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "./web.testing";

// The kid-picture form against the real server (issue 52, finding 13; needs `remix build` first): a phone photo over
// 3 MB is re-encoded and saved; one over 20 MB is answered in the form — the page without JavaScript, the data
// request with it — with the popup open and the name the parent typed kept, never a 413 the page cannot read.
let h: Awaited<ReturnType<typeof startTestServer>>;
let cookie: string;
let profileId: string;

beforeAll(async () => {
  h = await startTestServer("picture");
  const db = h.started.services.db;
  ({ cookie } = await h.signIn("demo@kids-portal.test"));
  profileId = (await db.selectFrom("kid_profiles").select("id").where("name", "=", "Leo").executeTakeFirstOrThrow()).id;
}, 60_000);
afterAll(async () => {
  await h?.started.close();
});

/** A photo of noise (it does not compress): `side` × `side` pixels, as PNG or as a high-quality JPEG with EXIF. */
async function photo(side: number, format: "png" | "jpeg"): Promise<Buffer> {
  const img = sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).withExif({
    IFD0: { ImageDescription: "GPS 51.5072 N 0.1276 W" },
  });
  return format === "png" ? img.png({ compressionLevel: 0 }).toBuffer() : img.jpeg({ quality: 100 }).toBuffer();
}

function editForm(picture: Buffer, name: string, type: string): FormData {
  const form = new FormData();
  form.append("intent", "edit-kid");
  form.append("profileId", profileId);
  form.append("kidName", name);
  form.append("birthMonth", "8");
  form.append("birthYear", "2019");
  form.append("picture", new File([picture], "photo", { type }));
  return form;
}

const post = (path: string, form: FormData) =>
  fetch(`${h.base}${path}`, { method: "POST", body: form, headers: { Cookie: cookie, Origin: h.base }, redirect: "manual" });

describe("the kid-picture form (issue 52)", () => {
  it("a 4 MB phone photo is re-encoded and saved: a JPEG of at most 512 px without its EXIF", async () => {
    const big = await photo(1800, "jpeg");
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    const res = await post(`/kids-device?profileId=${profileId}&modal=edit`, editForm(big, "Leo", "image/jpeg"));
    expect(res.status).toBe(302);
    const stored = await h.get(`/resources/kid-picture?profileId=${profileId}`, cookie);
    expect(stored.res.headers.get("content-type")).toBe("image/jpeg");
    const bytes = Buffer.from(
      await (await fetch(`${h.base}/resources/kid-picture?profileId=${profileId}`, { headers: { Cookie: cookie } })).arrayBuffer(),
    );
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 512, height: 512 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from("51.5072"))).toBe(false);
  });

  it("a 27 MB photo without JavaScript: the page again, popup open, the message in the form, the typed name kept", async () => {
    const huge = await photo(3000, "png");
    expect(huge.length).toBeGreaterThan(20 * 1024 * 1024);
    const res = await post(`/kids-device?profileId=${profileId}&modal=edit`, editForm(huge, "Leo Typed", "image/png"));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Edit kid");
    expect(html).toContain("The picture must be 20 MB or smaller.");
    expect(html).toContain('value="Leo Typed"');
    expect(html).not.toContain("Something went wrong");
  });

  it("the same photo sent in place (JavaScript on, a data request): an answer the page reads, with the message", async () => {
    const huge = await photo(3000, "png");
    const res = await post(`/kids-device.data?profileId=${profileId}&modal=edit`, editForm(huge, "Leo Typed", "image/png"));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("text/x-script");
    const body = await res.text();
    expect(body).toContain("The picture must be 20 MB or smaller.");
    expect(body).toContain("Leo Typed");
  });

  it("past 64 MB the body is refused with 413 and the server stays up", async () => {
    const form = editForm(Buffer.alloc(65 * 1024 * 1024, 1), "Leo", "image/png");
    const res = await post(`/kids-device?profileId=${profileId}&modal=edit`, form).catch(() => null);
    if (res) expect(res.status).toBe(413);
    expect((await fetch(`${h.base}/healthz`)).status).toBe(200);
  });
});
