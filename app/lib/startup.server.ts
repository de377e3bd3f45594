import type { Connection } from "@db/client.server";
import type { CspAllowances } from "./security.server";

/**
 * Hooks that capability modules register at import time: background work to
 * start once the database is open (e.g. the outbox mail worker) and the extra
 * CSP sources a configured third party needs (reCAPTCHA, Google Maps).
 */
const starters: ((conn: Connection) => void)[] = [];
const allowances: (() => CspAllowances)[] = [];

export function onDatabaseReady(start: (conn: Connection) => void): void {
  starters.push(start);
}

export function startBackgroundWork(conn: Connection): void {
  for (const start of starters) start(conn);
}

export function addCspAllowances(fn: () => CspAllowances): void {
  allowances.push(fn);
}

export function cspAllowances(): CspAllowances {
  const merged: Required<CspAllowances> = { scriptSrc: [], connectSrc: [], imgSrc: [], frameSrc: [], styleSrc: [], workerSrc: [] };
  for (const fn of allowances) {
    const a = fn();
    for (const key of Object.keys(merged) as (keyof CspAllowances)[]) merged[key].push(...(a[key] ?? []));
  }
  return merged;
}
