import type { AppLoadContext } from "@remix-run/node";

/**
 * Work shared by the loaders of one request (the layout and page loaders each need the signed-in parent and
 * the kids list). Remix hands each loader its own Request object but one load context per HTTP request, so
 * the context is the key: nothing outlives the request or leaks between requests.
 */
const memo = new WeakMap<object, Map<string, Promise<unknown>>>();

export function perRequest<T>(args: { request: Request; context: AppLoadContext }, key: string, compute: () => Promise<T>): Promise<T> {
  // Only reads: an action's work is never reused, so loaders that run after it see the new state.
  if (args.request.method !== "GET" && args.request.method !== "HEAD") return compute();
  // Work done for this very request before Remix (the page cache checks the session and reads the kids list).
  const preloaded = args.context.preloaded;
  if (preloaded && key in preloaded) return Promise.resolve(preloaded[key] as T);
  let entries = memo.get(args.context);
  if (!entries) memo.set(args.context, (entries = new Map()));
  let hit = entries.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = compute();
    entries.set(key, hit);
  }
  return hit;
}
