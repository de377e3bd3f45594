// The production server a bench run measures: built if needed, started on the scratch database
// with the bench's settings and timed to its first 200, stopped at the end (and whenever the
// bench's process ends, a thrown error included).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { serverNodeArgs } from "../server-node-args.mjs";
import { BUILD, CLIENT_IP_HEADER, PORT, SOCKET_PORT, base, buildDir, dataDir, extraNodeArgs } from "./args.mjs";
import { dropBenchDatabase, scratchDatabaseUrl } from "./database.mjs";

/** The one server of this run (a child process). */
let server;

/** Builds the site (`react-router build`) when BUILD_DIR holds no server build or --build asks; exits 1 if that fails. */
export function ensureBuild() {
  if (!existsSync(`${buildDir}/server/index.js`) || BUILD) {
    const r = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (r.status !== 0) process.exit(1);
  }
}

/** The server's environment: production, on the scratch database, with the bench's keys and limits. */
export function serverEnv() {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DB_SOCKET_PORT: String(SOCKET_PORT),
    DATABASE_URL: scratchDatabaseUrl() ?? "",
    SITE_URL: base,
    SESSION_SECRET: "bench-session-secret-0123456789abcdef0123",
    ALTCHA_HMAC_KEY: "bench-altcha-hmac-key-0123456789abcdef0123",
    DATA_ENCRYPTION_KEY: "6532652d646174612d656e6372797074696f6e2d6b65792d3031323334353637",
    LOG_LEVEL: "warn",
    // The bench is one client hammering one form: lift the per-IP limits for it
    // (the no-JS sum has a tighter budget of its own) and the minimum fill time.
    RATE_LIMIT_MAX: "1000000",
    RATE_LIMIT_NOJS_MAX: "1000000",
    FORM_MIN_FILL_MS: "0",
    // As on fly.io: the proxy's header names the client, so each bench buyer is its own visitor.
    CLIENT_IP_HEADER: CLIENT_IP_HEADER,
    // Production on DATABASE_URL refuses to start without SMTP unless told that mail to files is meant.
    MAIL_TRANSPORT: process.env.SMTP_URL ? "smtp" : "files",
    PAYMENT_GATEWAY: "sandbox",
  };
}

/**
 * Starts the server and returns the ms from its start to its first 200 on `/` (asked every 10 ms,
 * for 30 s at most). If none comes, says so, stops it, drops the scratch database and exits 1.
 */
export async function startServer() {
  const started = performance.now();
  const nodeArgs = [...serverNodeArgs, ...extraNodeArgs];
  server = spawn(process.execPath, [...nodeArgs, "server.mjs", `${buildDir}/server/index.js`], {
    env: serverEnv(),
    stdio: ["ignore", "ignore", "inherit"],
  });
  // However the bench ends (a thrown error included), its server goes with it.
  process.on("exit", () => server.kill("SIGTERM"));
  let firstOk = 0;
  for (let i = 0; i < 3000; i++) {
    try {
      const r = await fetch(`${base}/`);
      if (r.ok) {
        firstOk = performance.now() - started;
        break;
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 10));
  }
  if (!firstOk) {
    console.error("server did not answer");
    server.kill();
    await dropBenchDatabase();
    process.exit(1);
  }
  return firstOk;
}

/** Stops the server (SIGTERM: its ordered shutdown). */
export function stopServer() {
  server.kill("SIGTERM");
}

/** Stops the server and resolves once its process has ended (its port free for the next start). */
export async function stopServerAndWait() {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const ended = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await ended;
}

/** The server's process id, for the figures read from /proc. */
export function serverPid() {
  return server.pid;
}

/**
 * The server's resident memory at rest (MB): after its start, two pages (the home page and the
 * contact form) and 3 s for the background work that starts after the first pages.
 */
export async function idleRssMb(serverKb) {
  for (const path of ["/", "/contact"]) await (await fetch(`${base}${path}`)).text();
  await new Promise((r) => setTimeout(r, 3_000));
  return Math.round(serverKb("VmRSS") / 1024);
}
