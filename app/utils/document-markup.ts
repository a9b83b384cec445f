import { createContext, useContext } from "react";

/**
 * Markup a document renders on the server without shipping it a second time in its single-fetch data script.
 * The category chart's two SVGs are ~12 KB of text that a document carried twice: once in its HTML and once in
 * its loader data, escaped twice over (~18 KB of the dashboard's 70 KB).
 *
 * A loader gives such markup to `documentOnly` (app/utils/document-markup.server.ts): on a document request it is
 * kept in the request's load context and the loader data carries null; on a data request (client-side navigation,
 * revalidation) the data carries it, as the browser has nothing else to show. Components read it with
 * `useDocumentMarkup`: on the server from this context (entry.server provides the request's), in the browser from the
 * data when it has it, else from the document being hydrated.
 */
export const DocumentMarkupContext = createContext<ReadonlyMap<string, unknown> | null>(null);

export const useDocumentMarkup = <T>(key: string): T | undefined => useContext(DocumentMarkupContext)?.get(key) as T | undefined;
