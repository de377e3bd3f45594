// Types for the two modules server/app.ts imports that ship none.

/** The app as React Router's Vite plugin builds it (the server build). */
declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  export const entry: ServerBuild["entry"];
  export const routes: ServerBuild["routes"];
  export const assets: ServerBuild["assets"];
  export const basename: ServerBuild["basename"];
  export const publicPath: ServerBuild["publicPath"];
  export const assetsBuildDirectory: ServerBuild["assetsBuildDirectory"];
  export const future: ServerBuild["future"];
  export const ssr: ServerBuild["ssr"];
  export const isSpaMode: ServerBuild["isSpaMode"];
  export const prerender: ServerBuild["prerender"];
  export const routeDiscovery: ServerBuild["routeDiscovery"];
  export const allowedActionOrigins: ServerBuild["allowedActionOrigins"];
}

/** on-headers 1.x: runs `listener` (with the response as `this`) just before the response's headers are written. */
declare module "on-headers" {
  import type { ServerResponse } from "node:http";
  export default function onHeaders<T extends ServerResponse>(res: T, listener: (this: T) => void): void;
}
