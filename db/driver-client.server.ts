import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type postgres from "postgres";
import type { DbOrTx } from "./client.server";

/**
 * The driver's own client behind a Drizzle handle, for what Drizzle's query
 * API cannot say (a COPY fed from a stream: copy.server.ts), reached without
 * Drizzle's private fields.
 *
 * A database handle carries the client the app gave it as `$client` (Drizzle's
 * documented property, for postgres-js and PGlite alike). A transaction's
 * handle has none: its client is the one the driver hands the transaction's
 * callback (postgres-js's `sql.begin` and `savepoint`, PGlite's
 * `transaction`). The clients openDatabase makes (client.server.ts) pass that
 * one on to everything the callback runs, for as long as it runs, through
 * Node's AsyncLocalStorage (`runInTransaction`).
 */
export type DriverClient = { postgres: postgres.Sql } | { pglite: PGlite | Transaction };

const transactionClient = new AsyncLocalStorage<DriverClient>();

/** Runs a transaction's callback with that transaction's driver client known to `driverClientOf`. */
export function runInTransaction<T>(client: DriverClient, callback: () => T): T {
  return transactionClient.run(client, callback);
}

/**
 * Makes each PGlite transaction's client known to `driverClientOf` while its
 * callback runs (the instance's own `transaction`, wrapped in place).
 */
export function passTransactionClients(client: PGlite): PGlite {
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback: (tx: Transaction) => Promise<unknown>) =>
    transaction((tx) => runInTransaction({ pglite: tx }, () => callback(tx)))) as PGlite["transaction"];
  return client;
}

/**
 * The driver's client of `dbOrTx`: a database's `$client`; for a transaction,
 * the client of the innermost transaction (or savepoint) the calling code runs
 * in. Null for a driver openDatabase does not make.
 */
export function driverClientOf(dbOrTx: DbOrTx): DriverClient | null {
  if ("$client" in dbOrTx) return kindOf(dbOrTx.$client);
  return transactionClient.getStore() ?? null;
}

/** Which driver a database's `$client` is: postgres-js's `sql` (a function with `unsafe`) or a PGlite instance. */
function kindOf(client: unknown): DriverClient | null {
  const candidate = client as { unsafe?: unknown; query?: unknown } | null;
  if (typeof candidate?.unsafe === "function") return { postgres: client as postgres.Sql };
  if (typeof candidate?.query === "function") return { pglite: client as PGlite };
  return null;
}
