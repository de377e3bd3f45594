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
  // Bundle these into the server build instead of importing their packages at
  // run time: the server then holds only the Mantine components and React
  // Email parts the site uses (the packages' barrels load every component,
  // Prism included: about 70 MB of resident memory and a slower start).
  ssr: { noExternal: [/^@mantine\//, /^@react-email\//] },
  server: { port: Number(process.env.PORT ?? 3000) },
});
