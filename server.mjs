#!/usr/bin/env node
// Launches THE server (server/app.ts, typed; its comment says what it does):
//   node server.mjs [build/server/index.js]   the production build (npm start, Docker, e2e, bench)
//   node server.mjs --dev                      development (npm run dev): Vite compiles the app
//                                              and server/app.ts on the fly, with hot reload
// Both run the same code: the guards before Express, Express, React Router,
// and the one ordered shutdown. This file only chooses where that code comes from.
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dev = process.argv.includes("--dev");

// Before React loads (through the app): its build follows NODE_ENV.
process.env.NODE_ENV = dev ? "development" : (process.env.NODE_ENV ?? "production");

/** The settings are read as the app loads: a bad one stops the server with its name, not a stack trace. */
function stopOnBadConfig(error) {
  if (error instanceof Error && error.message.startsWith("Invalid environment configuration")) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

if (dev) {
  const { createServer } = await import("vite");
  // Made here so that Vite's HMR socket shares the site's port (the pages' CSP
  // allows connections to 'self' only); the app attaches everything else.
  const server = http.createServer();
  const vite = await createServer({ server: { middlewareMode: true, ws: { server } }, appType: "custom" });
  const app = await vite.ssrLoadModule("/server/app.ts").catch(stopOnBadConfig);
  // Vite's own SIGTERM handler (a Vite server React Router's plugin starts
  // inside it) closes it and exits with 143 at once, cutting the ordered
  // shutdown short; that shutdown closes Vite itself, last.
  for (const listener of process.listeners("SIGTERM")) process.off("SIGTERM", listener);
  app.start({ mode: "development", vite, server, host: process.env.HOST });
} else {
  const buildArg = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
  const buildPath = path.resolve(buildArg ?? `${process.env.BUILD_DIR ?? "build"}/server/index.js`);
  const app = await import(pathToFileURL(buildPath).href).catch(stopOnBadConfig);
  if (typeof app.start !== "function") {
    console.error(`${buildPath} is not a build of this server (no start export): rebuild it with npm run build`);
    process.exit(1);
  }
  app.start({
    mode: "production",
    clientDir: path.join(path.dirname(buildPath), "..", "client"),
    host: process.env.HOST,
  });
}
