/**
 * Prepares the embedded database's template for the current migrations (db/pglite-template.server.ts)
 * without opening a database: initdb and the migrations in a child process, published where the
 * server's first start will copy it. `npm start` runs it (with tsx) beside a new checkout's first
 * build, so that the server's first start takes ~1.5 s instead of ~7 s (issue 39). Does nothing
 * when the site runs on DATABASE_URL or templates are off.
 */
import { migrationsFolder, PGLITE_CONF } from "./client.server";
import { prepareTemplate } from "./pglite-template.server";
import { parseEnv } from "../app/lib/env.server";

if (!parseEnv().DATABASE_URL) {
  const started = performance.now();
  const template = await prepareTemplate({ migrationsFolder, conf: PGLITE_CONF });
  if (template) console.log(`embedded database template ready (${Math.round(performance.now() - started)} ms)`);
}
