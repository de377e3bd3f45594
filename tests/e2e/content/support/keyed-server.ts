import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startOwnServer } from "../../support/own-server";

/**
 * A second server for the Google tests: the same production build and server
 * (server.mjs), started with Places and Maps keys on an in-memory database,
 * with msw standing in for the Places API inside the server process.
 */
export const PLACES_KEY = "e2e-places-server-key-3b9f1c7a";
export const PLACE_ID = "ChIJe2eDoverPlace";
export const MAPS_KEY = "e2e-maps-browser-key-51d0a2";

export type KeyedServer = { url: string; placesRequests(): string[]; stop(): Promise<void> };

export async function startKeyedServer(): Promise<KeyedServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "content-keyed-"));
  const log = path.join(dir, "places.log");
  const preload = fileURLToPath(new URL("./places-preload.mjs", import.meta.url));
  const server = await startOwnServer({
    nodeArgs: ["--import", preload],
    env: () => ({
      DATA_DIR: "memory://",
      LOG_LEVEL: "warn",
      PAGE_CACHE: "off",
      GOOGLE_PLACES_API_KEY: PLACES_KEY,
      GOOGLE_PLACE_ID: PLACE_ID,
      GOOGLE_MAPS_API_KEY: MAPS_KEY,
      PLACES_MOCK_LOG: log,
    }),
  });
  return {
    url: server.url,
    placesRequests: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
