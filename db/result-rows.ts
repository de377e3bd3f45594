/** Rows of a raw query (`db.execute`), whichever driver ran it (postgres-js: an array; PGlite: `{ rows }`). */
export function resultRows<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
