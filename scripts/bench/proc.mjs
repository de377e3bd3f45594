// The server's memory and CPU as Linux counts them, read from /proc.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { serverPid } from "./server.mjs";

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

/** A memory figure of the server from /proc (kB): VmRSS now, VmHWM its peak. */
export function serverKb(field) {
  try {
    const status = readFileSync(`/proc/${serverPid()}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** The server's peak RSS so far (MB). */
export function peakRss() {
  return Math.round(serverKb("VmHWM") / 1024);
}

/**
 * The server's CPU time so far (user + system, ms), from /proc. Per request it
 * is steadier than requests/s on a shared machine, where other tenants and the
 * load generator take turns with the server on the same two cores.
 */
export function serverCpuMs() {
  return cpuMsOf(serverPid());
}

/** A process's CPU time so far (user + system, ms). */
export function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
