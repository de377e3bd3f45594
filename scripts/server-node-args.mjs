// The V8 flags the production server runs with: `npm start`, the end-to-end
// server, `npm run bench`, `npm run lighthouse`, and the Docker image's CMD
// (keep that one in step).
//
// A heap budget. Without it V8 sizes its heap from the machine's memory and,
// under 50 concurrent requests, lets garbage pile up: peak RSS near 300 MB
// for a live set of about 40 MB. With a 192 MB old generation it collects
// sooner (peak about 160 MB on PostgreSQL) for a few percent more CPU. The
// budget leaves the live set four times its size; fly.toml gives 512 MB.
export const serverNodeArgs = ["--max-old-space-size=192"];
