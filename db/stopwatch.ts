/**
 * Reports the time since the previous call (or since it was made) as a named step of a database's
 * start (opening, copying a template, migrating, seeding), to `onPhase` when one is given.
 */
export function stopwatch(opts: { onPhase?: (step: string, ms: number) => void }): (step: string) => void {
  let t = performance.now();
  return (step) => {
    const now = performance.now();
    opts.onPhase?.(step, Math.round(now - t));
    t = now;
  };
}
