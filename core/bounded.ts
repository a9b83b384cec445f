/**
 * A Map used as a bounded cache: `setBounded` adds `key`, first dropping the oldest entry when `max` are held (Maps
 * keep insertion order). A caller that wants least-recently-used order deletes and sets a key again on a hit.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
