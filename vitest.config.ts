import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { zipCentroids } from "./scripts/zip-centroids.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  plugins: [zipCentroids()],
  resolve: {
    alias: [
      { find: /^~\//, replacement: here("./app/") },
      { find: /^@db\//, replacement: here("./db/") },
    ],
  },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "db/**/*.test.ts",
      "scripts/**/*.test.ts",
      "server/**/*.test.ts",
      "tests/integration/**/*.test.{ts,tsx}",
    ],
    // *.pg.test.ts need the PostgreSQL server (a second connection holding a lock, a backend
    // terminated): they run in the pass on DATABASE_URL, which CI always makes. *.pglite.test.ts
    // try the embedded database itself (on disk): the PGlite pass only.
    exclude: [...configDefaults.exclude, ...(process.env.DATABASE_URL ? ["**/*.pglite.test.ts"] : ["**/*.pg.test.ts"])],
    environment: "node",
    // Configuration, not a VITEST branch in the code (app/lib/env.server.ts): quiet logs, and
    // generated secrets kept in memory, never in the developer's .secrets.json.
    env: { LOG_LEVEL: "silent", SECRETS_FILE: "off" },
    // Each test file in a process of its own (its own database handle: app/lib/db.server.ts).
    pool: "forks",
    isolate: true,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["tests/support/setup.ts"],
  },
});
