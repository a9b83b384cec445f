/**
 * A Map used as a bounded cache: `setBounded` adds `key`, first dropping the oldest entry when `max` are held (Maps
 * keep insertion order). For least-recently-used order, read through `getOrCreateLru`.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/**
 * A least-recently-used cache read: a held key moves to the newest end and its value is returned; otherwise
 * `create` makes the value (nothing is stored when it throws), which is added with `setBounded`.
 */
export function getOrCreateLru<K, V>(map: Map<K, V>, key: K, create: () => V, max: number): V {
  let value = map.get(key);
  if (value !== undefined || map.has(key)) map.delete(key);
  else value = create();
  setBounded(map, key, value as V, max);
  return value as V;
}
