import { unstable_parseMultipartFormData as parseMultipart, type UploadHandlerPart } from "@remix-run/node";
import type { Request as ExpressRequest } from "express";

/**
 * The kid-picture form's body (issue 52), read as it streams instead of being buffered whole: text fields are kept
 * (at most `fieldsLimit` bytes together), a file up to `fileLimit` bytes; a larger file is read off and dropped,
 * its field named in `dropped`, so the action answers "too large" in the form, popup open, with everything else the
 * parent typed — with JavaScript on or off. The body as a whole is read up to `totalLimit` bytes; past it, or past
 * the fields' limit, the answer is "too-large" (a 413); a body that is not multipart is "unreadable" (a 400).
 */
export type PictureForm = { form: FormData; dropped: string[] } | "too-large" | "unreadable";

export async function readPictureForm(
  req: ExpressRequest,
  contentType: string,
  o: { fieldsLimit: number; fileLimit: number; totalLimit: number },
): Promise<PictureForm> {
  let tooLarge = false;
  const body = bodyStream(req, o.totalLimit, () => (tooLarge = true));
  const request = new Request("http://localhost/", {
    method: "POST",
    headers: { "Content-Type": contentType },
    body,
    duplex: "half", // Node's fetch needs it for a streamed body
  });
  let fields = 0;
  const dropped: string[] = [];
  const keep = async (part: UploadHandlerPart): Promise<File | string | undefined> => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let over = false;
    const limit = part.filename === undefined ? o.fieldsLimit - fields : o.fileLimit;
    for await (const chunk of part.data) {
      size += chunk.byteLength;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    }
    if (part.filename === undefined) {
      if (over) {
        tooLarge = true;
        throw new Error("fields too large");
      }
      fields += size;
      return new TextDecoder().decode(Buffer.concat(chunks));
    }
    if (over) {
      dropped.push(part.name);
      return undefined;
    }
    return new File(chunks, part.filename, { type: part.contentType });
  };
  try {
    const form = await parseMultipart(request, keep);
    // A body without a single part (no boundary found) is no form.
    if ([...form.keys()].length === 0 && dropped.length === 0) return "unreadable";
    return { form, dropped };
  } catch {
    return tooLarge ? "too-large" : "unreadable";
  }
}

/**
 * The request as a web stream, read as the parser asks (back-pressure) and counted: past `limit` it stops reading
 * (paused, not destroyed: the connection still carries the 413) and errors the stream.
 */
function bodyStream(req: ExpressRequest, limit: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
  let total = 0;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const stop = () => {
        done = true;
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
      };
      const onData = (chunk: Buffer) => {
        total += chunk.length;
        if (total > limit) {
          stop();
          req.pause();
          onTooLarge();
          controller.error(new Error("The body is too large."));
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      };
      const onEnd = () => {
        stop();
        controller.close();
      };
      const onError = (err: Error) => {
        stop();
        controller.error(err);
      };
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("error", onError);
    },
    pull() {
      if (!done) req.resume();
    },
    cancel() {
      done = true;
      req.pause();
    },
  });
}
