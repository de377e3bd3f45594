import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { precompressClientBuild } from "./scripts/precompress.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * React Router's package.json points every condition at its *development*
 * build (remix-run/react-router#14102), so browsers were sent its dev-only
 * warnings and checks. Its production build sits beside it in the same
 * package; use it for the browser bundle. The server keeps the package's own
 * resolution, so it shares one copy of React Router with @react-router/express.
 */
function reactRouterProductionInBrowser(): Plugin {
  const production: Record<string, string> = {
    "react-router": here("./node_modules/react-router/dist/production/index.mjs"),
    "react-router/dom": here("./node_modules/react-router/dist/production/dom-export.mjs"),
  };
  return {
    name: "react-router-production-in-browser",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId: (id) => production[id],
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouterProductionInBrowser(), reactRouter(), precompressClientBuild()],
  resolve: {
    alias: [
      { find: /^~\//, replacement: here("./app/") },
      { find: /^@db\//, replacement: here("./db/") },
    ],
  },
  build: {
    target: "es2022",
    // The server build's entry is the server itself (React Router's custom
    // server pattern): build/server/index.js exports `start`, and the app
    // (virtual:react-router/server-build) is bundled inside it.
    ...(isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : {}),
  },
  // Bundle these into the server build instead of importing their packages at
  // run time: the server then holds only the Mantine components and React
  // Email parts the site uses (the packages' barrels load every component,
  // Prism included: about 70 MB of resident memory and a slower start).
  ssr: { noExternal: [/^@mantine\//, /^@react-email\//] },
  server: { port: Number(process.env.PORT ?? 3000) },
}));
