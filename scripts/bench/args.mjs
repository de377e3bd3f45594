// What `npm run bench` is told, read once: its command-line options and its environment.
//   --build   build again even when BUILD_DIR already holds a server build
//   --soak    the soak alone (or BENCH_SOAK=1; BENCH_SOAK_SECONDS long, default 600), see soak.mjs
//   --inp     Interaction to Next Paint alone (or BENCH_INP=1), see inp.mjs
//   --weight  the bytes of each page kind against its budget alone (or BENCH_WEIGHT=1), see weight.mjs
//   --history ten years of history against an empty database (or BENCH_HISTORY=1; needs
//             DATABASE_URL; BENCH_HISTORY_SCALE, default 1, is the years' share), see history.mjs
//   --compare DIR DIR…  the start (first page, main thread CPU, RSS) of server builds in turns,
//             BENCH_COMPARE_RUNS times each (default 8), see compare.mjs
// BENCH_PORT (default 3160) is the server's; the static ceiling, PGlite's socket and the form
// ceiling take the next three. BENCH_SECONDS (default 10) is each load's length,
// BENCH_CONTACT_REQUESTS (default 1000) the contact posts per round, BUILD_DIR (default build)
// the build served, BENCH_DATA_DIR (default .data-bench) PGlite's folder, DATABASE_URL a
// PostgreSQL server to bench on instead, BENCH_NODE_ARGS more flags for the server's node.

export const PORT = Number(process.env.BENCH_PORT ?? 3160);
export const STATIC_PORT = PORT + 1;
export const SOCKET_PORT = PORT + 2;
export const FORM_CEILING_PORT = PORT + 3;
export const base = `http://127.0.0.1:${PORT}`;
export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const SOAK = process.env.BENCH_SOAK === "1" || process.argv.includes("--soak");
export const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
export const INP_ONLY = process.env.BENCH_INP === "1" || process.argv.includes("--inp");
export const WEIGHT_ONLY = process.env.BENCH_WEIGHT === "1" || process.argv.includes("--weight");
export const HISTORY = process.env.BENCH_HISTORY === "1" || process.argv.includes("--history");
export const HISTORY_SCALE = Number(process.env.BENCH_HISTORY_SCALE ?? 1);
export const BUILD = process.argv.includes("--build");
/** `--compare DIR DIR…`: the build folders to start in turns (empty without the option). */
export const COMPARE = process.argv.includes("--compare")
  ? process.argv.slice(process.argv.indexOf("--compare") + 1).filter((arg) => !arg.startsWith("--"))
  : [];
export const CONTACT_REQUESTS = Number(process.env.BENCH_CONTACT_REQUESTS ?? 1000);
export const CONNECTIONS = 50;
export const CLIENT_IP_HEADER = "Fly-Client-IP";
export const buildDir = process.env.BUILD_DIR ?? "build";
export const dataDir = process.env.BENCH_DATA_DIR ?? ".data-bench";
/** DATABASE_URL: the PostgreSQL server to bench on; unset, the server runs on PGlite. */
export const serverUrl = process.env.DATABASE_URL;
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
export const extraNodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
