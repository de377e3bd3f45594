import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets two builds coexist on one machine (e.g. a dev build beside the e2e build).
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // A page sent with Referrer-Policy: no-referrer (a booking's manage page, DECISIONS 32) posts its
  // forms with Origin: null, which React Router's own action check refuses. The server's origin
  // guard (app/http/origin.server.ts) runs before React Router on every POST and lets Origin: null
  // through only with the browser's Sec-Fetch-Site: same-origin.
  allowedActionOrigins: ["null"],
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
