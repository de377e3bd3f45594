import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serverNodeArgs } from "../../../scripts/server-node-args.mjs";
import { e2eServerEnv } from "./server";

/** The line support/request-start-preload.mjs writes to stderr, before "<method> <path>". */
const REQUEST_STARTED = "[e2e] request started: ";

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export type OwnServerOptions = {
  /** Settings over the e2e server's (given the port). */
  env?: (port: number) => Record<string, string>;
  /** Extra node flags (e.g. `--import` of a test preload). */
  nodeArgs?: string[];
  /** Announce every request the app receives, for `requestsStarted` (support/request-start-preload.mjs). */
  requestStarts?: boolean;
  /** How long to wait for /healthz. */
  startTimeoutMs?: number;
};

export type OwnServer = {
  port: number;
  url: string;
  /** Scratch folder of this server (its embedded database, its secrets file). */
  dataDir: string;
  child: ChildProcess;
  /** What the server printed (stdout and stderr; the last 100 kB or more), for failure messages. */
  output(): string;
  /** Exit code or signal once the process has ended, else null. */
  exit(): string | null;
  /** Resolves with the exit code (null: killed by a signal it did not handle). */
  exited: Promise<number | null>;
  /** SIGTERM (SIGKILL after 10 s), then the scratch folder goes. */
  stop(): Promise<void>;
  /** SIGKILL if still running, then the scratch folder goes (for tests that ended it themselves). */
  cleanup(): void;
  /**
   * How many requests for `method path` the app has received so far (its headers parsed, the
   * request handed to the app: in flight). Needs `requestStarts: true`.
   */
  requestsStarted(method: string, path: string): number;
};

/**
 * The production server of a test's own, launched as Docker, `npm start` and
 * the Playwright server launch it (node with the same flags, `server.mjs`, the
 * build), on a free port and a scratch embedded database, for tests that end
 * the process, stop its database, or need settings the shared server does not
 * have. `env` may point it at another database (DATABASE_URL).
 */
export async function startOwnServer(options: OwnServerOptions = {}): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "own-server-e2e-"));
  const url = `http://localhost:${port}`;
  const child = spawn(
    process.execPath,
    [
      ...serverNodeArgs,
      ...(options.requestStarts
        ? ["--import", fileURLToPath(new URL("./request-start-preload.mjs", import.meta.url))]
        : []),
      ...(options.nodeArgs ?? []),
      "server.mjs",
      `${process.env.BUILD_DIR ?? "build"}/server/index.js`,
    ],
    {
      env: {
        ...process.env,
        ...e2eServerEnv(),
        PORT: String(port),
        SITE_URL: url,
        DATA_DIR: path.join(dataDir, "db"),
        SECRETS_FILE: path.join(dataDir, "secrets.json"),
        DB_SOCKET_PORT: "0",
        DATABASE_URL: "",
        LOG_LEVEL: "info",
        ...options.env?.(port),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (d: Buffer) => {
    output += d.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  // "<method> <path>" of every request the app received, from the preload's lines on stderr.
  const started: string[] = [];
  let partial = "";
  child.stderr?.on("data", (d: Buffer) => {
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith(REQUEST_STARTED)) started.push(line.slice(REQUEST_STARTED.length));
  });
  const requestsStarted = (method: string, p: string) => {
    if (!options.requestStarts) throw new Error("requestsStarted needs startOwnServer({ requestStarts: true })");
    return started.filter((r) => r === `${method} ${p}`).length;
  };
  let exit: string | null = null;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = signal ?? String(code);
      resolve(code);
    }),
  );
  const cleanup = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  };
  const stop = async () => {
    if (exit === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    }
    cleanup();
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  for (;;) {
    const failed = async (why: string) => {
      await stop();
      throw new Error(`${why}:\n${output}`);
    };
    if (exit !== null) return failed(`the server exited (${exit}) before answering /healthz`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) return failed("the server did not answer /healthz in time");
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port, url, dataDir, child, output: () => output, exit: () => exit, exited, stop, cleanup, requestsStarted };
}
