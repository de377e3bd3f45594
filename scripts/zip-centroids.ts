import { createRequire } from "node:module";
import type { Plugin } from "vite";

/**
 * The US ZIP centroids of the `zipcodes` package as one compact table, for the service-area check
 * (app/maps/coverage.server.ts, docs/decisions/075-start-and-memory.md). The package holds its
 * 44,000 places as JavaScript objects: loading it took 220 ms of the server's start and 88 MB of
 * its memory, for three numbers a place. This reads the same data at build time (and in the test
 * run) and hands the server a base64 string of three columns, in ZIP order:
 *   u32 count, then count × u32 ZIP, count × i32 latitude × 10⁴, count × i32 longitude × 10⁴
 * (the package's own precision is 10⁻⁴ degree). The server finds a ZIP by binary search.
 */
export function zipCentroidTable(): Buffer {
  const require = createRequire(import.meta.url);
  const { codes } = require("zipcodes") as {
    codes: Record<string, { zip: string; latitude: number; longitude: number; country: string }>;
  };
  const places = Object.values(codes)
    .filter((place) => place.country === "US" && /^\d{5}$/.test(place.zip))
    .sort((a, b) => Number(a.zip) - Number(b.zip));
  const n = places.length;
  const table = Buffer.alloc(4 + n * 12);
  table.writeUInt32LE(n, 0);
  places.forEach((place, i) => {
    table.writeUInt32LE(Number(place.zip), 4 + i * 4);
    table.writeInt32LE(Math.round(place.latitude * 1e4), 4 + n * 4 + i * 4);
    table.writeInt32LE(Math.round(place.longitude * 1e4), 4 + n * 8 + i * 4);
  });
  return table;
}

const ID = "virtual:zip-centroids";

/** `import table from "virtual:zip-centroids"`: the table above, as base64 (Vite, vitest). */
export function zipCentroids(): Plugin {
  return {
    name: "zip-centroids",
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    load: (id) =>
      id === `\0${ID}` ? `export default ${JSON.stringify(zipCentroidTable().toString("base64"))};` : undefined,
  };
}
