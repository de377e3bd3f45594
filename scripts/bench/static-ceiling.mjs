// The static ceiling: the home page's bytes, as the site served them, from a minimal static
// server (node:http in a child process), under the same load. What the cached home page is
// held against, here and in the soak.
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { STATIC_PORT, base } from "./args.mjs";
import { load } from "./load.mjs";

const homeFile = ".bench-home.html";
export const staticUrl = `http://127.0.0.1:${STATIC_PORT}/`;

/** Fetches the home page and writes its bytes where the static server reads them. */
export async function writeHomeFile() {
  const homeBytes = Buffer.from(await (await fetch(`${base}/`)).arrayBuffer());
  writeFileSync(homeFile, homeBytes);
}

/** Removes the home page's bytes written for the static server. */
export function removeHomeFile() {
  rmSync(homeFile, { force: true });
}

/** Starts the static server on the home page's bytes; resolves with its process 400 ms later. */
export async function startStaticServer() {
  const staticServer = spawn(
    process.execPath,
    [
      "-e",
      `const b=require('fs').readFileSync(${JSON.stringify(homeFile)});require('http').createServer((q,s)=>{s.writeHead(200,{'content-type':'text/html; charset=utf-8','content-length':b.length});s.end(b)}).listen(${STATIC_PORT},'127.0.0.1')`,
    ],
    { stdio: "ignore" },
  );
  await new Promise((r) => setTimeout(r, 400));
  return staticServer;
}

/** The static ceiling under one load (the home page's bytes fetched now). */
export async function measureStaticCeiling() {
  await writeHomeFile();
  const staticServer = await startStaticServer();
  const ceiling = await load(staticUrl);
  staticServer.kill();
  removeHomeFile();
  return ceiling;
}
