#!/usr/bin/env node
// Starts the production build for Playwright on a scratch embedded database
// (the folder is emptied first) or on E2E_DATABASE_URL.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { serverNodeArgs } from "./server-node-args.mjs";

if (!process.env.DATABASE_URL) rmSync(process.env.DATA_DIR ?? ".data-e2e", { recursive: true, force: true });
const child = spawn(process.execPath, [...serverNodeArgs, "server.mjs", `${process.env.BUILD_DIR ?? "build"}/server/index.js`], {
  stdio: "inherit",
  env: process.env,
});
// The server shuts down in order on SIGTERM/SIGINT and exits 0; killed by a
// signal it did not handle (SIGKILL), it has no code: report that as a failure.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
