/**
 * Every cache of the site, in one place (docs/decisions/047-caches.md). Each
 * lives in this process's memory: instances may differ for at most a
 * lifetime, and a deploy (a new process) starts them all empty.
 *
 * | cache                | where                       | key                                         | lifetime        |
 * | -------------------- | --------------------------- | ------------------------------------------- | --------------- |
 * | shared pages         | lib/page-cache.server.ts    | path + query of a GET whose route sends     | its s-maxage    |
 * |                      |                             | `s-maxage` (sharedCacheHeaders)             | (CACHE_TTL_MS)  |
 * | remembered documents | lib/page-cache.server.ts    | hash of method, path, status, loader and    | CACHE_TTL_MS    |
 * |                      |                             | action data (per-render values as holes)    |                 |
 * | shared 404 document  | lib/page-cache.server.ts    | the route, for routes with                  | CACHE_TTL_MS    |
 * |                      |                             | `notFoundDocumentIsShared`                  |                 |
 * | shell (footer) data  | shell/shell-data.server.ts  | the database                                | CACHE_TTL_MS    |
 *
 * Invalidation: an entry is dropped when its lifetime ends, or when
 * `reviewsStored()` is called (new Google reviews were written: the footer on
 * every page shows them), which drops every entry of every cache above.
 */
export const CACHE_TTL_MS = 60_000;

let generation = 0;

/** New reviews were stored: every cached page and the footer data are stale. */
export function reviewsStored(): void {
  generation++;
}

/** When an entry made now stops being fresh. */
export type Stamp = { expires: number; generation: number };
export function stamp(ttlMs = CACHE_TTL_MS): Stamp {
  return { expires: Date.now() + ttlMs, generation };
}
export function isFresh(entry: Stamp): boolean {
  return entry.generation === generation && entry.expires > Date.now();
}

/** One value per key object (a database), loaded at most once per lifetime; a failed load is not kept. */
export function keptPerKey<K extends object, V>(load: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const kept = new WeakMap<K, { stamp: Stamp; value: Promise<V> }>();
  return (key) => {
    const hit = kept.get(key);
    if (hit && isFresh(hit.stamp)) return hit.value;
    const value = load(key);
    kept.set(key, { stamp: stamp(), value });
    value.catch(() => kept.delete(key));
    return value;
  };
}
