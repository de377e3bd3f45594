import { randomBytes } from "node:crypto";
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { MIN_BYTES, precompressDir } from "./precompress";

let dir = "";
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("precompressDir", () => {
  it("writes Brotli and gzip copies that decode to the original, for text files only", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "precompress-"));
    await mkdir(path.join(dir, "assets"));
    const script = "export function hello(name){return `Hello, ${name}!`}\n".repeat(200);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="10" height="10"/>'.repeat(100)}</svg>`;
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    await writeFile(path.join(dir, "assets", "entry-abc.js"), script);
    await writeFile(path.join(dir, "logo.svg"), svg);
    await writeFile(path.join(dir, "tiny.css"), "a{color:red}"); // under MIN_BYTES
    await writeFile(path.join(dir, "brochure.pdf"), noise); // not a text type
    await writeFile(path.join(dir, "noise.js"), randomBytes(4096)); // does not shrink by a tenth

    const report = await precompressDir(dir);

    expect(report.files).toBe(2);
    const js = path.join(dir, "assets", "entry-abc.js");
    expect(brotliDecompressSync(await readFile(`${js}.br`)).toString()).toBe(script);
    expect(gunzipSync(await readFile(`${js}.gz`)).toString()).toBe(script);
    expect(brotliDecompressSync(await readFile(path.join(dir, "logo.svg.br"))).toString()).toBe(svg);
    expect((await readFile(`${js}.br`)).length).toBeLessThan((await readFile(`${js}.gz`)).length);
    const names = await readdir(dir);
    expect(names).not.toContain("tiny.css.br");
    expect(names).not.toContain("brochure.pdf.br");
    expect(names).not.toContain("noise.js.br");
    expect(MIN_BYTES).toBeGreaterThan("a{color:red}".length);
  });
});
