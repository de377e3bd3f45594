import { execFile, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./own-server";

/**
 * A PostgreSQL cluster of the test's own, from the Debian binaries, for tests
 * that stop and start the database server. The shared server on 5432 serves
 * every other test at the same time and must never be stopped.
 *
 * initdb and the server refuse to run as root: as root they run as the
 * `postgres` user (runuser), in a temporary folder that user owns.
 */

/** The newest /usr/lib/postgresql/<version>/bin that has initdb and pg_ctl, or undefined. */
export function postgresBinDir(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, "bin", "initdb")) && existsSync(path.join(base, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], "bin") : undefined;
}

export type PrivatePostgres = {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: every backend gets 57P01 and the port closes. */
  stop(): Promise<void>;
  /** `pg_ctl start -w`: resolves once the server accepts connections. */
  start(): Promise<void>;
  isRunning(): Promise<boolean>;
  /** The server's log (for a failure message). */
  log(): string;
  /** Stops the server (immediate) and deletes the folder. */
  destroy(): Promise<void>;
};

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error(
      "The database fault test needs the PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/<version>/bin: " +
        "sudo apt-get install -y postgresql",
    );
  }
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "pg-fault-"));
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = await freePort();

  /**
   * Runs a PostgreSQL binary as the cluster's owner; rejects with its output on
   * failure. Asynchronous: the test's load keeps running while pg_ctl waits.
   */
  const run = (tool: string, args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve) => {
      const cmd = asRoot ? "runuser" : path.join(bin, tool);
      const argv = asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args;
      execFile(cmd, argv, { encoding: "utf8", timeout: 90_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, out: `${stdout}\n${stderr}` });
      });
    });
  const pg = async (tool: string, args: string[]) => {
    const r = await run(tool, args);
    if (r.code !== 0) throw new Error(`${tool} ${args.join(" ")} failed (${r.code}):\n${r.out}\n${readLog()}`);
  };
  const readLog = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-4000) : "");

  // Trust authentication, on loopback only; fsync off and a small footprint: the
  // data is thrown away with the folder.
  const serverOptions = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c shared_buffers=32MB",
    "-c max_connections=40",
  ].join(" ");
  const start = () => pg("pg_ctl", ["-D", data, "-l", logFile, "-o", serverOptions, "-w", "-t", "60", "start"]);
  const running = async () => (await run("pg_ctl", ["-D", data, "status"])).code === 0;
  try {
    await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]),
    start,
    isRunning: running,
    log: readLog,
    async destroy() {
      try {
        if (await running()) await pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
