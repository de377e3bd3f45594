import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A second server for the Google tests: the same production build and server
 * (server.mjs), started with Places and Maps keys on an in-memory database,
 * with msw standing in for the Places API inside the server process.
 */
export const PLACES_KEY = "e2e-places-server-key-3b9f1c7a";
export const PLACE_ID = "ChIJe2eDoverPlace";
export const MAPS_KEY = "e2e-maps-browser-key-51d0a2";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export type KeyedServer = { url: string; placesRequests(): string[]; stop(): Promise<void> };

export async function startKeyedServer(): Promise<KeyedServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "content-keyed-"));
  const log = path.join(dir, "places.log");
  const preload = fileURLToPath(new URL("./places-preload.mjs", import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", preload, "server.mjs", `${process.env.BUILD_DIR ?? "build"}/server/index.js`],
    {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        SITE_URL: `http://localhost:${port}`,
        DATA_DIR: "memory://",
        DB_SOCKET_PORT: "0",
        DATABASE_URL: "",
        LOG_LEVEL: "warn",
        PAGE_CACHE: "off",
        GOOGLE_PLACES_API_KEY: PLACES_KEY,
        GOOGLE_PLACE_ID: PLACE_ID,
        GOOGLE_MAPS_API_KEY: MAPS_KEY,
        PLACES_MOCK_LOG: log,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`keyed server exited:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`keyed server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    placesRequests: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}
