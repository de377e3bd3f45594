/**
 * Hooks that capability modules register at import time: the extra CSP
 * sources a configured third party needs (reCAPTCHA, Google Maps), and work
 * to stop on shutdown. Background work is not started from here: the server's
 * start-up (server/app.ts) starts the mail worker itself once the database is
 * open, so what runs in the background is written in one place and no import
 * starts anything by its side effect.
 */
/** The sources a capability adds to the page's Content-Security-Policy (app/http/security.server.ts writes it). */
export type CspAllowances = {
  scriptSrc?: string[];
  connectSrc?: string[];
  imgSrc?: string[];
  frameSrc?: string[];
  styleSrc?: string[];
  workerSrc?: string[];
};

const allowances: (() => CspAllowances)[] = [];

/**
 * Work to stop before the database closes on SIGTERM/SIGINT (e.g. the mail
 * worker finishing the message it is sending), so nothing is cut off mid-way.
 */
const stoppers: (() => Promise<void>)[] = [];

export function onShutdown(stop: () => Promise<void>): void {
  stoppers.push(stop);
}

/** Runs every shutdown hook, waiting at most `timeoutMs` in all. */
export async function runShutdownHooks(timeoutMs = 10_000): Promise<void> {
  const all = Promise.allSettled(stoppers.map((stop) => stop()));
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
}

export function addCspAllowances(fn: () => CspAllowances): void {
  allowances.push(fn);
}

export function cspAllowances(): CspAllowances {
  const merged: Required<CspAllowances> = {
    scriptSrc: [],
    connectSrc: [],
    imgSrc: [],
    frameSrc: [],
    styleSrc: [],
    workerSrc: [],
  };
  for (const fn of allowances) {
    const a = fn();
    for (const key of Object.keys(merged) as (keyof CspAllowances)[]) merged[key].push(...(a[key] ?? []));
  }
  return merged;
}
