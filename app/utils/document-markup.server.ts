import type { AppLoadContext } from "@remix-run/node";

/**
 * `value` for the loader's data on a data request; null on a document request, where it is kept for the render
 * instead (app/utils/document-markup.ts). Without a document markup map in the context (tests calling a loader
 * directly) the data carries it.
 */
export function documentOnly<T>(context: Pick<AppLoadContext, "documentMarkup">, key: string, value: T): T | null {
  if (!context.documentMarkup) return value;
  context.documentMarkup.set(key, value);
  return null;
}
