// Pre-compressed copies of the browser build: for every text file the server
// hands out as-is (scripts, styles, SVG illustrations, icons), a Brotli (.br,
// quality 11) and a gzip (.gz, level 9) copy written beside it at build time.
// The server serves them with sirv (server/app.ts): phones get Brotli, about a
// fifth smaller than gzip, and the server compresses nothing per request.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Files worth compressing (images other than SVG, PDFs and video are compressed already). */
export const COMPRESSIBLE = /\.(?:m?js|css|svg|ico|json|txt|xml|webmanifest|html)$/i;
/** Below this a compressed copy saves less than the headers it costs. */
export const MIN_BYTES = 1024;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

export type PrecompressReport = { files: number; bytes: number; brotliBytes: number; gzipBytes: number };

/** Writes `file.br` and `file.gz` beside every compressible file in `dir` that shrinks. */
export async function precompressDir(dir: string): Promise<PrecompressReport> {
  const report: PrecompressReport = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const jobs: Promise<void>[] = [];
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const raw = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(raw, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gz(raw, { level: 9 }),
        ]);
        // A copy that saves under a tenth is not worth the extra file.
        if (gzipped.length > raw.length * 0.9) return;
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        report.files += 1;
        report.bytes += raw.length;
        report.brotliBytes += br.length;
        report.gzipBytes += gzipped.length;
      })(),
    );
  }
  await Promise.all(jobs);
  return report;
}

/** Vite plugin: pre-compresses the client build once it is written (public files included). */
export function precompressClientBuild(): Plugin {
  return {
    name: "precompress-client-build",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async closeBundle(error?: Error) {
      // A failed build runs this hook too, with nothing written: leave the build's own error to be seen.
      if (error) return;
      const { root, build } = this.environment.config;
      const outDir = path.resolve(root, build.outDir);
      if (!existsSync(outDir)) return;
      const r = await precompressDir(outDir);
      const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
      this.environment.logger.info(
        `precompressed ${r.files} files: ${kB(r.bytes)} → ${kB(r.brotliBytes)} brotli, ${kB(r.gzipBytes)} gzip`,
      );
    },
  };
}
