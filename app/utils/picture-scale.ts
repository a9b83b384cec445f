/**
 * A chosen photo scaled down in the browser before the form is sent (issue 52; progressive enhancement: without
 * JavaScript the original is sent and the server re-encodes it). A phone photo of 5–30 MB becomes a JPEG of at most
 * `side` pixels on its long side (a few dozen KB), upright, transparency on white. The server re-encodes it again,
 * so nothing here is trusted. Null when this browser cannot read the file (HEIC in most browsers, not a picture):
 * the original is sent as chosen and the form's check and the server answer it.
 */
export async function scalePicture(file: File, side: number): Promise<File | null> {
  if (typeof createImageBitmap !== "function" || typeof document === "undefined") return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return null;
  }
  try {
    const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext("2d");
    if (!ctx) return null;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, width, height);
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(bitmap, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
    if (!blob) return null;
    return new File([blob], `${file.name.replace(/\.[^.]*$/, "") || "picture"}.jpg`, { type: "image/jpeg" });
  } finally {
    bitmap.close();
  }
}
