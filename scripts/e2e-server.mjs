#!/usr/bin/env node
// Starts the production build for Playwright on a scratch embedded database
// (the folder is emptied first) or on E2E_DATABASE_URL.
//
// Its log: everything the server writes, at info level at least, goes to
// E2E_LOG_FILE (when set), where the audit after the suite (tests/e2e/audit)
// looks for card numbers and CVCs; Playwright's output still gets what it got
// before, the lines at LOG_LEVEL (E2E_LOG_LEVEL, warn by default) and above,
// so a whole run's info lines do not drown the test list.
import { spawn } from "node:child_process";
import { openSync, rmSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { serverNodeArgs } from "./server-node-args.mjs";

/** pino's levels. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const shownLevel = process.env.LOG_LEVEL ?? "info";
const serverLevel = LEVELS[shownLevel] < LEVELS.info ? shownLevel : "info";

if (!process.env.DATABASE_URL) rmSync(process.env.DATA_DIR ?? ".data-e2e", { recursive: true, force: true });
const child = spawn(
  process.execPath,
  [...serverNodeArgs, "server.mjs", `${process.env.BUILD_DIR ?? "build"}/server/index.js`],
  {
    stdio: ["inherit", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: serverLevel },
  },
);

// Written synchronously: a line is in the file before the next one is read,
// and nothing is lost when Playwright kills this process at the end.
const file = process.env.E2E_LOG_FILE ? openSync(process.env.E2E_LOG_FILE, "w") : undefined;
createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
  if (file !== undefined) writeSync(file, `${line}\n`);
  // pino's lines start with their level; anything else (a crash's text) is always shown.
  const level = /^\{"level":(\d+)/.exec(line)?.[1];
  if (level === undefined || Number(level) >= LEVELS[shownLevel]) process.stdout.write(`${line}\n`);
});
child.stderr.on("data", (chunk) => {
  if (file !== undefined) writeSync(file, chunk);
  process.stderr.write(chunk);
});

// The server shuts down in order on SIGTERM/SIGINT and exits 0; killed by a
// signal it did not handle (SIGKILL), it has no code: report that as a failure.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
// "close", not "exit": the last lines of its output are read first.
child.on("close", (code) => process.exit(code ?? 1));
