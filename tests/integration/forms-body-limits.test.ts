import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import {
  BAD_MULTIPART_MESSAGE,
  JSON_TOO_DEEP_MESSAGE,
  TEXT_TOO_LARGE_MESSAGE,
  TOO_LARGE_MESSAGE,
  TOO_MANY_FIELDS_MESSAGE,
} from "~/http/body.server";
import { contactForm } from "~/forms/contact/handle.server";
import { apiFormAction, formAction } from "~/forms/actions.server";
import { runForm } from "~/forms/pipeline";
import { readBody } from "~/http/read-body.server";
import { createTestDatabase } from "../support/db";
import { count, formPost, honeypotFields, inPiecesBody, nextIp, SITE, sumAnswer, toFormData } from "./forms-support";

/**
 * Body limits (issue 15): every limit counts the bytes actually read, with or
 * without Content-Length; text forms 1 MB and 500 fields; JSON shallow and
 * made of what a form can hold. A refused body is answered briefly (nothing
 * of it is echoed back) and stores nothing; a malformed one is a 400, never a 500.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const valid = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "(810) 555-0142",
  details: "Hello.",
};
const MB = 1024 * 1024;

/** A request whose body arrives as a stream in pieces of `piece` bytes (so delimiters fall across them): no Content-Length, as when sent chunked. */
function streamed(path: string, bytes: Uint8Array, contentType: string, piece = 16 * 1024): Request {
  const body = inPiecesBody(bytes, piece);
  return new Request(`${SITE}${path}`, {
    method: "POST",
    headers: { Origin: SITE, "Sec-Fetch-Site": "same-origin", "Content-Type": contentType },
    body,
    duplex: "half",
  } as RequestInit);
}

const contactPost = (request: Request) => runForm(contactForm, request, { db: conn.db, clientIp: nextIp() });
const apiContact = (request: Request) => apiFormAction(contactForm, { request }, { db: conn.db, clientIp: nextIp() });
const storedRows = () => count(conn.db, "contact_submissions");

describe("text bodies", () => {
  it("a chunked URL-encoded body over 1 MB (no Content-Length) is refused with 413 and a short answer", async () => {
    const body = new TextEncoder().encode(`first_name=${"x".repeat(3 * MB)}`);
    const request = streamed("/contact", body, "application/x-www-form-urlencoded");
    expect(request.headers.get("content-length")).toBeNull();
    const before = await storedRows();
    const outcome = await contactPost(request);
    expect(outcome).toMatchObject({ ok: false, status: 413, message: TOO_LARGE_MESSAGE, reply: null });
    expect(JSON.stringify(outcome).length).toBeLessThan(1000); // nothing of the body comes back

    // The same through the no-JS page action: a short answer, not the 3 MB re-rendered.
    const page = await formAction(
      contactForm,
      { request: streamed("/contact", body, "application/x-www-form-urlencoded") },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(page.init?.status).toBe(413);
    expect(JSON.stringify(page.data).length).toBeLessThan(1000);
    expect(await storedRows()).toBe(before);
  });

  it("a declared Content-Length over 1 MB is refused before reading; a smaller one that lies is not trusted", async () => {
    const declaredBig = formPost("/contact", "first_name=x", {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": String(2 * MB),
    });
    // (undici may drop a Content-Length set by hand; when it keeps it, the answer is 413 at once.)
    if (declaredBig.headers.get("content-length")) expect((await contactPost(declaredBig)).status).toBe(413);
    const lying = streamed(
      "/contact",
      new TextEncoder().encode(`details=${"y".repeat(2 * MB)}`),
      "application/x-www-form-urlencoded",
    );
    lying.headers.set("content-length", "20");
    expect((await contactPost(lying)).status).toBe(413);
  });

  it("100,000 tiny fields: 413 'too many fields' (URL-encoded and JSON)", async () => {
    const urlencoded = await contactPost(
      formPost("/contact", "a=1&".repeat(100_000), { "Content-Type": "application/x-www-form-urlencoded" }),
    );
    expect(urlencoded).toMatchObject({ status: 413, message: TOO_MANY_FIELDS_MESSAGE, reply: null });
    const json = await apiContact(
      formPost("/api/store/contact/submit", { ...valid, a: Array.from({ length: 100_000 }, () => 1) }),
    );
    expect(json.status).toBe(413);
    expect(await json.json()).toEqual({ success: false, message: TOO_MANY_FIELDS_MESSAGE });
  });

  it("500 fields are still read (a form may repeat a checkbox)", async () => {
    const fields = new URLSearchParams({ ...valid, ...honeypotFields(), ...sumAnswer() });
    while ([...fields.keys()].length < 500) fields.append("unused", "1");
    const outcome = await contactPost(formPost("/contact", fields));
    expect(outcome.ok).toBe(true);
  });

  it("invalid percent-encoding and invalid UTF-8 are read (as U+FFFD or as typed), never thrown", async () => {
    const bytes = Buffer.concat([
      Buffer.from("first_name=%E0%A4%A&last_name=%ZZ%&details=%FF%FE&email="),
      Buffer.from([0xff, 0xc3, 0x28]),
      Buffer.from("&phone=%&"),
      Buffer.from(new URLSearchParams(honeypotFields()).toString()),
    ]);
    const request = new Request(`${SITE}/contact`, {
      method: "POST",
      headers: { Origin: SITE, "Content-Type": "application/x-www-form-urlencoded" },
      body: bytes,
    });
    const { fields } = await readBody(request);
    expect(fields.get("last_name")).toBe("%ZZ%");
    expect(fields.get("details")).toBe("\uFFFD\uFFFD");
    expect(fields.get("email")).toBe("\uFFFD\uFFFD(");

    const outcome = await contactPost(
      new Request(request.url, { method: "POST", headers: request.headers, body: bytes }),
    );
    expect(outcome.status).toBe(400); // the schema's field errors, not a 500
    expect(outcome.fieldErrors.email).toBeDefined();
  });
});

describe("JSON", () => {
  it("nested 10,000 deep: 400 with a clear message", async () => {
    const deep = `{"first_name":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const response = await apiContact(
      formPost("/api/store/contact/submit", deep, { "Content-Type": "application/json" }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: JSON_TOO_DEEP_MESSAGE });
  });

  it('a 400 KB {"first_name":[[[…]]]} is a 400, not a 500 (JSON.stringify overflowed on it)', async () => {
    const half = 200 * 1024;
    const body = `{"first_name":${"[".repeat(half)}${"]".repeat(half)}}`;
    expect(body.length).toBeGreaterThan(400 * 1024);
    const response = await apiContact(
      formPost("/api/store/contact/submit", body, { "Content-Type": "application/json" }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(JSON_TOO_DEEP_MESSAGE);
  });

  it("an object, or a list of lists, where a value belongs: 400 naming the field", async () => {
    for (const value of [{ a: 1 }, [["x"]], [{ b: 2 }]]) {
      const response = await apiContact(formPost("/api/store/contact/submit", { ...valid, first_name: value }));
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(
        'The field "first_name" must be text, a number, true/false or a list of those.',
      );
    }
  });

  it("brackets inside strings do not count as nesting; lists of text are fine", async () => {
    const response = await apiContact(
      formPost("/api/store/contact/submit", { ...valid, details: '[[[[[[{{{{{ \\" ]]]', tags: ["a", 1, true, null] }),
    );
    // Past the body checks: the next refusal is the missing captcha.
    expect(await response.json()).toMatchObject({ success: false, message: "Please complete the CAPTCHA." });
  });

  it("over 1 MB, chunked: 413; invalid UTF-8: 400", async () => {
    const big = new TextEncoder().encode(JSON.stringify({ ...valid, details: "z".repeat(2 * MB) }));
    expect((await apiContact(streamed("/api/store/contact/submit", big, "application/json"))).status).toBe(413);
    const bad = Buffer.concat([Buffer.from('{"first_name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await apiContact(
      new Request(`${SITE}/api/store/contact/submit`, {
        method: "POST",
        headers: { Origin: SITE, "Content-Type": "application/json" },
        body: bad,
      }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("The request body is not valid JSON.");
  });
});

describe("multipart", () => {
  async function encode(fd: FormData): Promise<{ bytes: Uint8Array; type: string }> {
    const response = new Response(fd);
    return { bytes: new Uint8Array(await response.arrayBuffer()), type: response.headers.get("content-type")! };
  }

  /** A multipart body written by hand: each part's header lines, then its bytes. */
  function multipart(
    parts: { headers: string[]; body: Uint8Array | string }[],
    boundary = "----f0rmB0undary",
  ): { bytes: Uint8Array; type: string } {
    const pieces = parts.flatMap(({ headers, body }) => [
      Buffer.from(`--${boundary}\r\n${headers.join("\r\n")}\r\n\r\n`),
      Buffer.from(body),
      Buffer.from("\r\n"),
    ]);
    return {
      bytes: Buffer.concat([...pieces, Buffer.from(`--${boundary}--\r\n`)]),
      type: `multipart/form-data; boundary=${boundary}`,
    };
  }
  const field = (name: string, value: string) => ({
    headers: [`Content-Disposition: form-data; name="${name}"`],
    body: value,
  });

  it("1,000 text fields, or 1,000 parts that are no field at all: 413 'too many fields'", async () => {
    const fd = toFormData({ ...valid });
    for (let i = 0; i < 1000; i++) fd.append(`f${i}`, "1");
    const outcome = await contactPost(formPost("/contact", fd));
    expect(outcome).toMatchObject({ status: 413, message: TOO_MANY_FIELDS_MESSAGE });

    // Parts without a Content-Disposition are skipped, but each still counts.
    const { bytes, type } = multipart(Array.from({ length: 1000 }, () => ({ headers: ["X-Nothing: 1"], body: "" })));
    expect(await contactPost(streamed("/contact", bytes, type))).toMatchObject({
      status: 413,
      message: TOO_MANY_FIELDS_MESSAGE,
    });
  });

  it("text fields over 1 MB in all, one field over 1 MB, or field names that add up to it: 413", async () => {
    const fd = toFormData({ ...valid });
    for (let i = 0; i < 3; i++) fd.append(`f${i}`, "t".repeat(400 * 1024));
    expect(await contactPost(formPost("/contact", fd))).toMatchObject({ status: 413, message: TEXT_TOO_LARGE_MESSAGE });

    const one = toFormData({ ...valid, details: "d".repeat(2 * MB) });
    expect(await contactPost(formPost("/contact", one))).toMatchObject({
      status: 413,
      message: TEXT_TOO_LARGE_MESSAGE,
    });

    // A name can be as long as a part's header allows (16 KB): names count towards the 1 MB too.
    const { bytes, type } = multipart(Array.from({ length: 100 }, (_, i) => field(`${i}-${"n".repeat(15_000)}`, "")));
    expect(await contactPost(streamed("/contact", bytes, type))).toMatchObject({
      status: 413,
      message: TEXT_TOO_LARGE_MESSAGE,
    });
  });

  it("a part's header block over 16 KB (busboy's bound), or a charset no decoder knows: 400", async () => {
    const long = multipart([
      {
        headers: [`Content-Disposition: form-data; name="first_name"`, `X-Padding: ${"p".repeat(20_000)}`],
        body: "Ada",
      },
    ]);
    expect(await contactPost(streamed("/contact", long.bytes, long.type))).toMatchObject({
      status: 400,
      message: BAD_MULTIPART_MESSAGE,
    });
    const charset = multipart([
      {
        headers: [
          `Content-Disposition: form-data; name="first_name"`,
          "Content-Type: text/plain; charset=x-no-such-charset",
        ],
        body: "Ada",
      },
    ]);
    expect(await contactPost(streamed("/contact", charset.bytes, charset.type))).toMatchObject({
      status: 400,
      message: BAD_MULTIPART_MESSAGE,
    });
  });

  it("a body cut off inside a file no form takes is a 400 (the file's stream broke; the process does not)", async () => {
    const fd = toFormData({ ...valid });
    fd.append("attachment", new File([randomBytes(300_000)], "x.bin", { type: "application/octet-stream" }));
    const { bytes, type } = await encode(fd);
    const outcome = await contactPost(streamed("/contact", bytes.slice(0, 200_000), type));
    expect(outcome).toMatchObject({ status: 400, message: BAD_MULTIPART_MESSAGE });
  });

  it("a chunked multipart body far past any limit (no Content-Length) is refused with 413", async () => {
    const fd = toFormData({ ...valid });
    fd.append("junk", new File([new Uint8Array(90 * MB)], "junk.bin", { type: "application/octet-stream" }));
    const { bytes, type } = await encode(fd);
    const outcome = await contactPost(streamed("/contact", bytes, type, 64 * 1024));
    expect(outcome).toMatchObject({ status: 413, message: TOO_LARGE_MESSAGE, reply: null });
  });

  it("parses the same whatever the chunking: fields, UTF-8 names and a file across many pieces", async () => {
    const file = randomBytes(70_000);
    const fd = toFormData({ ...valid, details: "Ça va ? — 👍\r\nline two", empty: "" });
    fd.append("attachment", new File([file], 'we"ird name.png', { type: "image/png" }));
    const { bytes, type } = await encode(fd);
    for (const piece of [1, 7, 61, 4096]) {
      const { fields } = await readBody(streamed("/contact", bytes, type, piece));
      expect(fields.get("details")).toBe("Ça va ? — 👍\r\nline two");
      expect(fields.get("empty")).toBe("");
      expect(fields.get("email")).toBe(valid.email);
      expect(fields.has("attachment")).toBe(false); // files go only where an upload rule sends them
    }
  });

  it("a body cut off before its closing delimiter, or with no boundary, is a 400", async () => {
    const { bytes, type } = await encode(toFormData({ ...valid }));
    const cut = await contactPost(streamed("/contact", bytes.slice(0, bytes.length - 10), type));
    expect(cut).toMatchObject({ status: 400, message: BAD_MULTIPART_MESSAGE });
    const noBoundary = await contactPost(formPost("/contact", "x", { "Content-Type": "multipart/form-data" }));
    expect(noBoundary.status).toBe(400);
  });

  it("invalid UTF-8 in a text part is read as U+FFFD, not thrown", async () => {
    const boundary = "----b0undary";
    const bytes = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="first_name"\r\n\r\n`),
      Buffer.from([0xff, 0xfe, 0x41]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const { fields } = await readBody(streamed("/contact", bytes, `multipart/form-data; boundary=${boundary}`));
    expect(fields.get("first_name")).toBe("\uFFFD\uFFFDA");
  });
});
