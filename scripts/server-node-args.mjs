// The V8 flags the production server runs with: `npm start`, the end-to-end
// server, `npm run bench`, `npm run lighthouse`, and the Docker image's CMD
// (keep that one in step).
//
// A heap budget. Without it V8 sizes its heap from the machine's memory and,
// under concurrent requests, lets garbage pile up; with a bounded old
// generation it collects sooner for a few percent more CPU
// (docs/decisions/013-heap-budget.md). 128 MB since issue 39: fly.toml gives the
// machine 256 MB, and the old generation's bound plus the young generation and
// the process's own ~60 MB must fit inside it (docs/decisions/075-start-and-memory.md).
export const serverNodeArgs = ["--max-old-space-size=128"];
