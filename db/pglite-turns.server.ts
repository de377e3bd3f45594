import type { PGlite } from "@electric-sql/pglite";

/**
 * Lets the server's event loop breathe between embedded-database operations.
 *
 * PGlite runs Postgres in this thread: each query executes synchronously and
 * resolves a promise. Under load, queued queries (from many requests, and the
 * mail worker) then run back to back as one chain of microtasks, and the event
 * loop never reaches I/O in between: measured here, stretches of up to 1.4 s
 * in which no request was read and no response was written, not even a static
 * file, so a few form posts out of a thousand waited more than 10 s.
 *
 * This puts one FIFO queue in front of the instance's top-level entry points
 * (`query`, `exec`, `transaction`) and gives the event loop one turn
 * (`setImmediate`) before each operation. A transaction is one operation: the
 * statements inside it go through its own `tx` object, not through this queue,
 * so nothing can wait on itself, as long as code inside a transaction uses its
 * `tx` (it must anyway: a query on the outer client would not be part of it).
 *
 * Only the embedded database needs this; postgres-js talks to a server over
 * sockets, which are I/O.
 */
export function takeTurns(client: PGlite): PGlite {
  let tail: Promise<unknown> = Promise.resolve();
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  function inTurn<T>(operation: () => Promise<T>): Promise<T> {
    const run = tail.then(nextTurn).then(operation);
    tail = run.catch(() => undefined);
    return run;
  }

  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<PGlite["query"]>) => inTurn(() => query(...args))) as PGlite["query"];
  client.exec = ((...args: Parameters<PGlite["exec"]>) => inTurn(() => exec(...args))) as PGlite["exec"];
  client.transaction = ((...args: Parameters<PGlite["transaction"]>) =>
    inTurn(() => transaction(...args))) as PGlite["transaction"];
  return client;
}
