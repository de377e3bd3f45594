import { defineConfig } from "drizzle-kit";

// Studio, migrate and generate work against whichever database the site uses:
// DATABASE_URL when set, otherwise the embedded PGlite database that the running
// server shares on a loopback port (PGlite corrupts its folder if opened twice).
const socketPort = process.env.DB_SOCKET_PORT ?? "5433";
const url = process.env.DATABASE_URL ?? `postgres://postgres@127.0.0.1:${socketPort}/postgres?sslmode=disable`;

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
  dbCredentials: { url },
  strict: true,
  verbose: true,
});
