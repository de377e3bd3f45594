import { reactRouter } from "@react-router/dev/vite";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { autoColorScheme } from "./app/shell/auto-color-scheme.postcss.ts";
import { precompressClientBuild } from "./scripts/precompress.ts";
import { zipCentroids } from "./scripts/zip-centroids.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * React Router's package.json points every condition at its *development*
 * build (remix-run/react-router#14102), so browsers were sent its dev-only
 * warnings and checks. Its production build sits beside it in the same
 * package; use it for the browser bundle. The server keeps the package's own
 * resolution, so it shares one copy of React Router with @react-router/node.
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

/**
 * One "shell" chunk for what every page loads before its first paint, instead
 * of the many small chunks the automatic split made of it: Lighthouse's mobile
 * simulation counts every modulepreloaded chunk as render-blocking, and each
 * costs a request on its throttled connection (docs/decisions/043-shell-chunk.md). The shell is
 * the static import closure of the client entry and the root route (React,
 * React DOM, React Router, header, footer), plus the small app modules that at
 * least three route modules import (page head, banner, the forms' client
 * action, money), when all they import is already there. The closure follows
 * only app/ and the core packages, so a barrel import (root's `@mantine/core`,
 * a form's zod) does not pull the form pages' libraries into every page.
 */
function shellChunk(): Plugin {
  const shell = new Set<string>();
  const app = here("./app/");
  const core = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;
  const followed = (id: string) => id.startsWith(app) || core.test(id) || id.startsWith("\0");
  const isShellEntry = (id: string) => /[\\/]entry\.client\.tsx$/.test(id) || id.startsWith(here("./app/root.tsx"));
  return {
    name: "shell-chunk",
    apply: "build",
    config: (_config, env) =>
      env.isSsrBuild
        ? undefined
        : {
            build: {
              rollupOptions: {
                output: { codeSplitting: { groups: [{ name: "shell", test: (id: string) => shell.has(id) }] } },
              },
            },
          },
    buildEnd() {
      if (this.environment.name !== "client") return;
      const info = (id: string) => this.getModuleInfo(id);
      /** What `from` imports statically, transitively, through the modules `follow` accepts; entries excluded. */
      const closure = (from: readonly string[], follow: (id: string) => boolean) => {
        const seen = new Set<string>();
        const stack = [...from];
        while (stack.length) {
          const id = stack.pop()!;
          const module = info(id);
          if (seen.has(id) || !follow(id) || !module || module.isEntry) continue;
          seen.add(id);
          stack.push(...module.importedIds);
        }
        return seen;
      };
      const entries = [...this.getModuleIds()].filter((id) => info(id)?.isEntry);
      for (const id of closure(
        entries.filter(isShellEntry).flatMap((id) => info(id)!.importedIds),
        followed,
      ))
        shell.add(id);
      const routeFiles = new Map<string, Set<string>>();
      for (const entry of entries.filter((id) => !isShellEntry(id))) {
        for (const id of closure(info(entry)!.importedIds, followed)) {
          const files = routeFiles.get(id) ?? new Set();
          routeFiles.set(id, files.add(entry.replace(/\?.*/, "")));
        }
      }
      for (const [id, files] of routeFiles) {
        if (shell.has(id) || files.size < 3 || !id.startsWith(app)) continue;
        const deps = closure([id], () => true);
        if ([...deps].every(followed)) for (const dep of deps) shell.add(dep);
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouterProductionInBrowser(), reactRouter(), shellChunk(), precompressClientBuild(), zipCentroids()],
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
    ...(isSsrBuild
      ? {
          rollupOptions: {
            input: "./server/app.ts",
            output: { comments: { legal: true, annotation: true, jsdoc: false }, charset: "ascii" as const },
          },
        }
      : {}),
  },
  // Bundle these into the server build instead of importing their packages at
  // run time: the server then holds only the Mantine components and React
  // Email parts the site uses (the packages' barrels load every component,
  // Prism included: docs/decisions/012-server-bundle-includes-mantine-and-react-email.md).
  ssr: {
    noExternal: [
      /^@mantine\//,
      /^@react-email\//,
      // Packages of many small files, bundled too: Node loaded ~870 files at start, each resolved
      // and compiled apart; bundled, the server reaches its first page ~140 ms sooner
      // (docs/decisions/075-start-and-memory.md). Only pure JavaScript: the drivers (postgres,
      // PGlite, pg-boss's pg) and pino (its worker thread) stay packages.
      /^drizzle-orm/,
      /^zod/,
      /^@conform-to\//,
      /^imask/,
      /^react-imask/,
      /^card-validator/,
      /^credit-card-type/,
      /^nodemailer/,
      /^ics/,
      /^yup/,
      /^property-expr/,
      /^tiny-case/,
      /^toposort/,
      /^file-type/,
      /^strtok3/,
      /^@tokenizer\//,
      /^token-types/,
      /^uint8array-extras/,
      /^altcha-lib/,
    ],
  },
  // `<html data-mantine-color-scheme="auto">` follows the OS in CSS alone, JavaScript or not
  // (docs/decisions/062-colour-mode-and-carousel.md).
  css: { postcss: { plugins: [autoColorScheme()] } },
  server: { port: Number(process.env.PORT ?? 3000) },
}));
