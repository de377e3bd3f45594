import { existsSync, readdirSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BodyError, UPLOADS_UNAVAILABLE_MESSAGE } from "~/http/body.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { readBody, type ParsedBody } from "~/http/read-body.server";
import { uploadTempBytes, uploadTempDir } from "~/http/temp-files.server";
import { log } from "~/lib/log.server";
import { formPost, inPiecesBody, pngBytes, toFormData } from "./forms-support";

/**
 * Uploads within a disk budget (issue 28 item 6): a full or failing disk is
 * answered at once (503, Retry-After) and leaves nothing behind; the bytes of
 * temporary files in flight stay within UPLOAD_TEMP_BUDGET_BYTES; the
 * caller's cheap checks (beforeFiles) run before any file byte is written.
 */

// Read by env() on first use, which happens when the modules above are imported: set before them.
vi.hoisted(() => {
  process.env.UPLOAD_TEMP_BUDGET_BYTES = String(4 * 1024 * 1024);
});

const MB = 1024 * 1024;
const rule = commercialServiceForm.uploads!;
const text = { name: "Harbor Cold Storage", city: "Bay City", tag: ["a", "b"] };

/** A PNG of `size` bytes (file-type reads its header only). */
const photo = (name: string, size: number) => new File([pngBytes(size)], name, { type: "image/png" });

/** A multipart post whose body arrives in pieces of 64 KB, as from a socket (many writes per file). */
async function post(fields: Record<string, string | string[] | File | File[]>): Promise<Request> {
  const built = formPost("/request-service?type=commercial", toFormData(fields));
  const body = inPiecesBody(new Uint8Array(await built.arrayBuffer()), 64 * 1024);
  return new Request(built.url, { method: "POST", headers: built.headers, body, duplex: "half" } as RequestInit);
}

/** Files in this process's upload folder right now. */
function tempFiles(): string[] {
  const dir = uploadTempDir();
  return dir && existsSync(dir) ? readdirSync(dir) : [];
}

/** FileHandle's prototype (node:fs/promises does not export the class): its `write` is what a temp file uses. */
async function fileHandlePrototype(): Promise<{ write: (...args: unknown[]) => Promise<unknown> }> {
  const probe = path.join(os.tmpdir(), `uploads-budget-probe-${process.pid}`);
  const handle = await open(probe, "w");
  await handle.close();
  rmSync(probe, { force: true });
  return Object.getPrototypeOf(handle);
}

/** Makes the `nth` write to a file (and every later one) fail as the disk would. */
async function failWrites(code: string, nth: number) {
  const proto = await fileHandlePrototype();
  const original = proto.write;
  let calls = 0;
  return vi.spyOn(proto, "write").mockImplementation(async function (this: unknown, ...args: unknown[]) {
    if (++calls >= nth) {
      throw Object.assign(new Error(`${code}: simulated, write`), { code, syscall: "write", errno: -28 });
    }
    return original.apply(this, args);
  });
}

/** readBody's outcome, or what it threw; fails the test if it takes longer than `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work.catch((error: unknown) => error), late]);
  } finally {
    clearTimeout(timer);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a disk that refuses a write", () => {
  it.each([
    ["ENOSPC", 1],
    ["ENOSPC", 5],
    ["EIO", 3],
    ["EDQUOT", 2],
  ])(
    "%s on write %i: 503 with Retry-After within 5 s, no file left, logged once, and the next upload works",
    async (code, nth) => {
      const errors = vi.spyOn(log, "error");
      const write = await failWrites(code, nth);
      const started = Date.now();
      const outcome = await within(
        5_000,
        readBody(await post({ ...text, photo: [photo("a.png", 3 * MB), photo("b.png", MB / 2)] }), rule),
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(outcome).toBeInstanceOf(BodyError);
      expect(outcome).toMatchObject({ status: 503, message: UPLOADS_UNAVAILABLE_MESSAGE, retryAfterSeconds: 30 });
      expect(tempFiles()).toEqual([]);
      expect(uploadTempBytes()).toBe(0);
      expect(errors).toHaveBeenCalledTimes(1);
      // The disk's error, never a field's value.
      expect(JSON.stringify(errors.mock.calls[0])).toContain(code);
      expect(JSON.stringify(errors.mock.calls[0])).not.toContain("Harbor");

      write.mockRestore(); // space is back
      const next = await within(5_000, readBody(await post({ ...text, photo: photo("ok.png", MB) }), rule));
      expect(next).not.toBeInstanceOf(Error);
      const parsed = next as ParsedBody;
      expect(parsed.uploads).toHaveLength(1);
      expect(tempFiles()).toHaveLength(1);
      await parsed.cleanup();
      expect(tempFiles()).toEqual([]);
      expect(uploadTempBytes()).toBe(0);
    },
  );

  it("a client that stops sending after the disk refused still gets its 503 at once", async () => {
    await failWrites("ENOSPC", 2);
    const built = formPost("/request-service?type=commercial", toFormData({ ...text, photo: photo("a.png", 2 * MB) }));
    const whole = new Uint8Array(await built.arrayBuffer());
    let sent = 0;
    // 1 MB arrives, then nothing more (the connection stays open).
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= MB) return new Promise<void>(() => {});
        controller.enqueue(whole.slice(sent, sent + 64 * 1024));
        sent += 64 * 1024;
      },
    });
    const stalled = new Request(built.url, {
      method: "POST",
      headers: built.headers,
      body,
      duplex: "half",
    } as RequestInit);
    const outcome = await within(5_000, readBody(stalled, rule));
    expect(outcome).toMatchObject({ status: 503, retryAfterSeconds: 30 });
    expect(tempFiles()).toEqual([]);
  });

  it("the upload folder removed under a running server is made again", async () => {
    const first = await readBody(await post({ ...text, photo: photo("a.png", 1000) }), rule);
    await first.cleanup();
    const dir = uploadTempDir()!;
    rmSync(dir, { recursive: true, force: true });
    const outcome = await within(5_000, readBody(await post({ ...text, photo: photo("b.png", 1000) }), rule));
    expect(outcome).not.toBeInstanceOf(Error);
    const parsed = outcome as ParsedBody;
    expect(parsed.uploads).toHaveLength(1);
    expect(existsSync(parsed.uploads[0]!.path)).toBe(true);
    await parsed.cleanup();
    expect(tempFiles()).toEqual([]);
  });
});

describe("the temp-file budget (UPLOAD_TEMP_BUDGET_BYTES, 4 MB here)", () => {
  it("refuses a post that would go beyond it (503, Retry-After, its files removed), and takes it again once the first body's cleanup ran", async () => {
    const first = await readBody(await post({ ...text, photo: photo("big.png", 3 * MB) }), rule);
    expect(first.uploads).toHaveLength(1);

    const second = () => post({ ...text, photo: [photo("small.png", MB / 2), photo("more.png", MB)] });
    const refused = await within(5_000, readBody(await second(), rule));
    expect(refused).toBeInstanceOf(BodyError);
    expect(refused).toMatchObject({ status: 503, message: UPLOADS_UNAVAILABLE_MESSAGE, retryAfterSeconds: 30 });
    expect(tempFiles()).toEqual([path.basename(first.uploads[0]!.path)]); // only the first body's file
    expect(uploadTempBytes()).toBe(3 * MB);

    await first.cleanup();
    expect(uploadTempBytes()).toBe(0);
    const accepted = await readBody(await second(), rule);
    expect(accepted.uploads.map((u) => u.fileName)).toEqual(["small.png", "more.png"]);
    await accepted.cleanup();
    expect(tempFiles()).toEqual([]);
  });

  it("a single post larger than the whole budget is refused, nothing left behind", async () => {
    const outcome = await within(5_000, readBody(await post({ ...text, photo: photo("huge.png", 5 * MB) }), rule));
    expect(outcome).toMatchObject({ status: 503, retryAfterSeconds: 30 });
    expect(tempFiles()).toEqual([]);
    expect(uploadTempBytes()).toBe(0);
  });

  it("a file refused by a rule (not an image) gives its bytes back at once", async () => {
    const fake = new File([new Uint8Array(2 * MB).fill(65)], "x.jpg", { type: "image/jpeg" });
    const parsed = await readBody(await post({ ...text, photo: [photo("ok.png", MB), fake] }), rule);
    expect(parsed.uploadErrors.photo).toHaveLength(1);
    expect(uploadTempBytes()).toBe(0);
    expect(tempFiles()).toEqual([]);
  });
});

describe("beforeFiles: the caller's checks before any file byte is written", () => {
  const entries = (fields: FormData) => [...fields].map(([name, value]) => [name, String(value)]);

  it("throwing: readBody rethrows that same error, and no temporary file was ever created", async () => {
    const write = vi.spyOn(await fileHandlePrototype(), "write");
    const before = tempFiles();
    const wrongSum = new Error("The answer to the sum is wrong.");
    const seen: string[][] = [];
    const beforeFiles = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 100)); // the body waits meanwhile
      seen.push(tempFiles());
      throw wrongSum;
    });
    const request = await post({ ...text, photo: [photo("a.png", 3 * MB), photo("b.png", MB)] });
    const outcome = await within(5_000, readBody(request, rule, { beforeFiles }));
    expect(outcome).toBe(wrongSum);
    expect(beforeFiles).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([before]);
    expect(write).not.toHaveBeenCalled();
    expect(tempFiles()).toEqual(before);
    expect(uploadTempBytes()).toBe(0);
  });

  it("is called exactly once, when the first file arrives, with the text fields read so far", async () => {
    const write = vi.spyOn(await fileHandlePrototype(), "write");
    let writesBefore = -1;
    const beforeFiles = vi.fn(async (_fields: FormData) => {
      writesBefore = write.mock.calls.length;
    });
    const fd = toFormData({ ...text, photo: [photo("a.png", 2 * MB), photo("b.png", MB)] });
    fd.append("late", "after the files");
    const built = formPost("/request-service?type=commercial", fd);
    const request = new Request(built.url, {
      method: "POST",
      headers: built.headers,
      body: inPiecesBody(new Uint8Array(await built.arrayBuffer()), 64 * 1024),
      duplex: "half",
    } as RequestInit);
    const parsed = await readBody(request, rule, { beforeFiles });
    expect(beforeFiles).toHaveBeenCalledTimes(1);
    expect(entries(beforeFiles.mock.calls[0]![0])).toEqual([
      ["name", "Harbor Cold Storage"],
      ["city", "Bay City"],
      ["tag", "a"],
      ["tag", "b"],
    ]);
    expect(writesBefore).toBe(0);
    expect(write).toHaveBeenCalled();
    // readBody's own result is unchanged: every field, every file.
    expect(entries(parsed.fields)).toContainEqual(["late", "after the files"]);
    expect(parsed.uploads).toHaveLength(2);
    await parsed.cleanup();
  });

  it("a multipart body without files, URL-encoded and JSON: called once with all the fields, before readBody returns", async () => {
    const calls: string[][][] = [];
    const beforeFiles = async (fields: FormData) => void calls.push(entries(fields));
    await readBody(await post(text), rule, { beforeFiles });
    await readBody(formPost("/contact", new URLSearchParams({ name: "Ada", city: "Flint" })), undefined, {
      beforeFiles,
    });
    await readBody(formPost("/contact", { name: "Ada", tag: ["x", "y"] }), undefined, { beforeFiles });
    expect(calls).toEqual([
      [
        ["name", "Harbor Cold Storage"],
        ["city", "Bay City"],
        ["tag", "a"],
        ["tag", "b"],
      ],
      [
        ["name", "Ada"],
        ["city", "Flint"],
      ],
      [
        ["name", "Ada"],
        ["tag", "x"],
        ["tag", "y"],
      ],
    ]);
    const refused = new Error("refused");
    const throwing = async () => {
      throw refused;
    };
    await expect(readBody(await post(text), rule, { beforeFiles: throwing })).rejects.toBe(refused);
    await expect(readBody(formPost("/contact", { name: "Ada" }), undefined, { beforeFiles: throwing })).rejects.toBe(
      refused,
    );
  });

  it("the quote API's 'data' JSON part is spread into the fields it is given", async () => {
    const beforeFiles = vi.fn(async (_fields: FormData) => {});
    const fd = new FormData();
    fd.append("data", JSON.stringify({ first_name: "Marie", recaptcha_token: "token" }));
    fd.append("photo", photo("dock.png", 1000));
    const parsed = await readBody(formPost("/api/store/request-quote/commercial", fd), rule, { beforeFiles });
    expect(beforeFiles).toHaveBeenCalledTimes(1);
    expect(entries(beforeFiles.mock.calls[0]![0])).toEqual([
      ["first_name", "Marie"],
      ["recaptcha_token", "token"],
    ]);
    await parsed.cleanup();
  });
});
