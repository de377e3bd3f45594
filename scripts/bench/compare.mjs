// `npm run bench -- --compare DIR DIR…`: the start of several server builds, in turns on one
// scratch database (migrated by the release command first, as on fly.io), BENCH_COMPARE_RUNS
// times each (default 8). For each start: the ms from the process's start to its first 200 on `/`
// (asked every 5 ms), the CPU its main thread spent until then, and its resident memory after
// `/contact` and 3 s more (the background work started). Prints the medians, the ranges and each
// build's ratio to the first. This machine's speed drifts within minutes: builds measured in turns
// are compared, never figures of different runs (docs/decisions/075 and 076). With DATABASE_URL the
// builds start on PostgreSQL; without it on the embedded database, whose folder the first start
// makes (leave that start out of the reading).
//
// Build an older commit to compare with from a worktree, e.g.
//   git worktree add /tmp/old b8e8228 && ln -s "$PWD/node_modules" /tmp/old/node_modules
//   (cd /tmp/old && BUILD_DIR="$OLDPWD/build-old" npx react-router build)
// A build from before decision 076 imports Express: install express@4.22.3,
// express-static-gzip@3.0.2 and @react-router/express@7.18.4 into build-old/node_modules
// (`npm install --prefix … --no-save --legacy-peer-deps`, then delete the react* and
// @react-router/node copies there, so that one React Router is loaded, as in production).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { serverNodeArgs } from "../server-node-args.mjs";
import { base } from "./args.mjs";
import { createScratchDatabase, dropBenchDatabase } from "./database.mjs";
import { serverEnv } from "./server.mjs";

const RUNS = Number(process.env.BENCH_COMPARE_RUNS ?? 8);

/** CPU ms (user + system) the process's main thread has spent, from /proc (10 ms ticks). */
function mainThreadCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One start of `dir`'s server: first page ms, main thread CPU ms, RSS MB after two pages. */
async function startOnce(dir) {
  const started = performance.now();
  const child = spawn(process.execPath, [...serverNodeArgs, "server.mjs", `${dir}/server/index.js`], {
    env: serverEnv(),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const ended = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (let i = 0; i < 6000; i++) {
      const answer = await fetch(`${base}/`).catch(() => undefined);
      if (answer?.ok) {
        await answer.text();
        const firstPageMs = Math.round(performance.now() - started);
        const cpuMs = mainThreadCpuMs(child.pid);
        await (await fetch(`${base}/contact`)).text();
        await new Promise((r) => setTimeout(r, 3_000));
        const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]);
        return { firstPageMs, cpuMs, rssMb: Math.round(rssKb / 1024) };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`${dir}: no first page within 30 s`);
  } finally {
    child.kill("SIGTERM");
    await ended;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const range = (values) => `${Math.min(...values)}–${Math.max(...values)}`;

/** Starts every build in `dirs` RUNS times, in turns, and prints the table. */
export async function compareStarts(dirs) {
  for (const dir of dirs) if (!existsSync(`${dir}/server/index.js`)) throw new Error(`${dir} holds no server build`);
  await createScratchDatabase();
  try {
    const runs = Object.fromEntries(dirs.map((dir) => [dir, []]));
    for (let i = 0; i < RUNS; i++) for (const dir of dirs) runs[dir].push(await startOnce(dir));
    const first = runs[dirs[0]];
    const of = (list, key) => list.map((run) => run[key]);
    console.table(
      dirs.map((dir) => {
        const list = runs[dir];
        return {
          build: dir,
          "first page ms (median)": median(of(list, "firstPageMs")),
          "range ms": range(of(list, "firstPageMs")),
          "× first build": (median(of(list, "firstPageMs")) / median(of(first, "firstPageMs"))).toFixed(2),
          "main thread CPU ms": median(of(list, "cpuMs")),
          "CPU × first": (median(of(list, "cpuMs")) / median(of(first, "cpuMs"))).toFixed(2),
          "RSS MB after two pages": median(of(list, "rssMb")),
        };
      }),
    );
  } finally {
    await dropBenchDatabase();
  }
}
