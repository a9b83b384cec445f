/**
 * Work shared by the loaders of one request (root, layout and page loaders each need the signed-in parent
 * and the kids list). Keyed by the Request object, so nothing outlives the request or leaks between requests.
 */
const memo = new WeakMap<Request, Map<string, Promise<unknown>>>();

export function perRequest<T>(request: Request, key: string, compute: () => Promise<T>): Promise<T> {
  // Only reads: after an action changes data, loaders of the same request must see the new state.
  if (request.method !== "GET" && request.method !== "HEAD") return compute();
  let entries = memo.get(request);
  if (!entries) memo.set(request, (entries = new Map()));
  let hit = entries.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = compute();
    entries.set(key, hit);
  }
  return hit;
}
