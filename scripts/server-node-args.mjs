// The V8 flags the production server runs with: `npm start`, the end-to-end
// server, `npm run bench`, `npm run lighthouse`, and the Docker image's CMD
// (keep that one in step).
//
// A heap budget. Without it V8 sizes its heap from the machine's memory and,
// under concurrent requests, lets garbage pile up; with a 192 MB old
// generation it collects sooner for a few percent more CPU
// (docs/decisions/013-heap-budget.md). fly.toml gives 512 MB.
export const serverNodeArgs = ["--max-old-space-size=192"];
