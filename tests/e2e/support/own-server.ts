import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { e2eServerEnv } from "./server";

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

export type OwnServer = {
  port: number;
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null: killed by a signal it did not handle). */
  exited: Promise<number | null>;
  cleanup(): void;
};

/**
 * A production server of a test's own (node server.mjs, as Docker and npm
 * start launch it) on a free port and a scratch embedded database, for tests
 * that end the process or need settings the shared server does not have.
 * `env` (given the port) overrides the e2e server's settings.
 */
export async function startOwnServer(env: (port: number) => Record<string, string> = () => ({})): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "own-server-e2e-"));
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, ["server.mjs", `${process.env.BUILD_DIR ?? "build"}/server/index.js`], {
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
      FORM_MIN_FILL_MS: "0",
      ...env(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited before answering /healthz:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer /healthz within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    url,
    dataDir,
    child,
    output: () => output,
    exited,
    cleanup() {
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
