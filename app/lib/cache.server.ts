/**
 * Every cache of the site, in one place (docs/decisions/047-caches.md). Each
 * lives in this process's memory: instances may differ for at most a
 * lifetime, and a deploy (a new process) starts them all empty.
 *
 * | cache                | where                       | key                                         | lifetime        | bound                |
 * | -------------------- | --------------------------- | ------------------------------------------- | --------------- | -------------------- |
 * | shared pages         | http/page-cache.server.ts    | path + the query parameters its route reads | its s-maxage    | 200 entries, 8 MB    |
 * |                      |                             | (READ_PARAMS) of a GET whose route sends    | (CACHE_TTL_MS)  |                      |
 * |                      |                             | `s-maxage` (sharedCacheHeaders)             |                 |                      |
 * | remembered documents | http/page-cache.server.ts    | hash of method, path + read parameters,     | CACHE_TTL_MS    | 100 entries, 4 MB    |
 * |                      |                             | status, loader and action data (per-render  |                 |                      |
 * |                      |                             | values as holes)                            |                 |                      |
 * | shared 404 document  | http/page-cache.server.ts    | the route, for routes with                  | CACHE_TTL_MS    | (one of the above)   |
 * |                      |                             | `notFoundDocumentIsShared`                  |                 |                      |
 * | POSTs seen once      | http/page-cache.server.ts    | the remembered-document key (a fixed-size   | CACHE_TTL_MS    | 1000 entries, ~0.1 MB|
 * |                      |                             | hash), so the second sighting is kept       |                 |                      |
 * | shell (footer) data  | shell/shell-data.server.ts  | the database                                | CACHE_TTL_MS    | one per database     |
 *
 * Bounds (docs/decisions/052-bounded-caches.md): a cache of whole documents is
 * held to a number of entries AND of bytes (`BoundedCache`): the bytes live
 * outside V8's heap budget (--max-old-space-size), so only this bound keeps
 * them from growing the process. When either is reached, the least recently
 * used entry goes first.
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

/**
 * A cache of string keys bounded by entries and by bytes (the caller says what
 * an entry weighs), least recently used out first. An entry past its stamp is
 * dropped when it is next asked for; until then it counts towards the bounds.
 */
export class BoundedCache<V extends { stamp: Stamp }> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  /** The fresh value under `key` (now the most recently used), or undefined. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (!isFresh(entry.value.stamp)) {
      this.total -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (`bytes` heavy) under `key`, dropping the least recently used entries beyond the bounds. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return; // never kept: it would push out everything else
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    while (this.entries.size > this.maxEntries || this.total > this.maxBytes) {
      this.delete(this.entries.keys().next().value!);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the entries weigh, as their callers counted it. */
  get bytes(): number {
    return this.total;
  }
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
