import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  plugins: [reactRouter()],
  resolve: {
    alias: [
      { find: /^~\//, replacement: here("./app/") },
      { find: /^@db\//, replacement: here("./db/") },
    ],
  },
  build: { target: "es2022" },
  server: { port: Number(process.env.PORT ?? 3000) },
});
