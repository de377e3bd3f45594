#!/usr/bin/env node
// `npm start`: builds once when there is no build, then runs the production
// server on PORT (default 3000): server.mjs with build/server/index.js, which
// is server/app.ts compiled with the app. With no DATABASE_URL the site runs on
// the embedded database in DATA_DIR (default ./.data), seeded. A build whose
// server/index.js exports no `start` (not made from this repository's
// vite.config.ts) is rebuilt too; `npm start -- --rebuild` always rebuilds.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { serverNodeArgs } from "./server-node-args.mjs";

const root = new URL("..", import.meta.url).pathname;
process.chdir(root);

const isServerBuild = () =>
  existsSync("build/server/index.js") &&
  /\bexport \{[^}]*\bstart\b/.test(readFileSync("build/server/index.js", "utf8").slice(-2000));
/** Runs a command to its end: its exit code (1 when it could not start). */
const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });

if (!isServerBuild() || process.argv.includes("--rebuild")) {
  console.log("No build of this server found: building the site once (npm run build)…");
  // Beside the build, the embedded database's template (initdb and the migrations, ~5 s): the
  // server's first start then copies it instead of waiting for it (db/prepare-template.ts).
  const [built, prepared] = await Promise.all([
    run("npx", ["react-router", "build"]),
    run("npx", ["tsx", "db/prepare-template.ts"]),
  ]);
  if (built !== 0) process.exit(built);
  if (prepared !== 0) console.log("The embedded database's template could not be prepared: the first start makes it.");
}

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production", PORT: process.env.PORT ?? "3000" };
const child = spawn(process.execPath, [...serverNodeArgs, "server.mjs", "build/server/index.js"], {
  stdio: "inherit",
  env,
});
// The server shuts down in order on SIGTERM/SIGINT (server/http.ts) and exits 0;
// a repeated signal (Ctrl+C reaches both processes) is harmless.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
