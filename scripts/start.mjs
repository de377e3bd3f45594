#!/usr/bin/env node
// `npm start`: builds once when there is no build, then serves the production
// build with react-router-serve on PORT (default 3000). With no DATABASE_URL the
// site runs on the embedded database in DATA_DIR (default ./.data), seeded.
import { spawnSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { serverNodeArgs } from "./server-node-args.mjs";

const root = new URL("..", import.meta.url).pathname;
process.chdir(root);

if (!existsSync("build/server/index.js") || process.argv.includes("--rebuild")) {
  console.log("No build found: building the site once (npm run build)…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production", PORT: process.env.PORT ?? "3000" };
const child = spawn(process.execPath, [...serverNodeArgs, "server.mjs", "build/server/index.js"], {
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
