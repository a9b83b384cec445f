import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { logFilePath, serverLogDir } from "#core/log-files.server";
import { requireOperator } from "~/utils/auth.server";

/**
 * `/kids/{file}` (spec 2 /server-logs): one server log file, streamed as plain text (files can be large).
 * Operators only; any name that is not a log file's (traversal, other files, encoded variants) is a 404.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireOperator(args);
  const file = logFilePath(serverLogDir(args.context.services.env.DATA_DIR), args.params.file ?? "");
  if (!file) throw new Response("Not found.", { status: 404 });
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new Response("Not found.", { status: 404 });
  // Exactly the bytes there are now: the file may still be growing while it streams.
  const body = info.size === 0 ? "" : createReadableStreamFromReadable(createReadStream(file, { start: 0, end: info.size - 1 }));
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": String(info.size),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "inline",
    },
  });
}
