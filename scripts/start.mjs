#!/usr/bin/env node
// `npm start`: builds once when there is no build, then runs the production
// server on PORT (default 3000): server.mjs with build/server/index.js, which
// is server/app.ts compiled with the app. With no DATABASE_URL the site runs on
// the embedded database in DATA_DIR (default ./.data), seeded. A build whose
// server/index.js exports no `start` (not made from this repository's
// vite.config.ts) is rebuilt too; `npm start -- --rebuild` always rebuilds.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { serverNodeArgs } from "./server-node-args.mjs";

const root = new URL("..", import.meta.url).pathname;
process.chdir(root);

const isServerBuild = () =>
  existsSync("build/server/index.js") &&
  /\bexport \{[^}]*\bstart\b/.test(readFileSync("build/server/index.js", "utf8").slice(-2000));
if (!isServerBuild() || process.argv.includes("--rebuild")) {
  console.log("No build of this server found: building the site once (npm run build)…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
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
