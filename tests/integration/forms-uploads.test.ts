import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { apiFormAction } from "~/forms/actions.server";
import { runForm } from "~/forms/pipeline";
import { fullQuoteForm } from "~/forms/quote/handle.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { PhotoField } from "~/forms/ui/fields";
import { readBody } from "~/http/read-body.server";
import { uploadTempDir } from "~/http/temp-files.server";
import { createTestDatabase } from "../support/db";
import {
  altchaToken,
  count,
  formPost,
  honeypotFields,
  imageFile,
  jpegBytes,
  pngBytes,
  rows,
  sumAnswer,
  toFormData,
  nextIp,
  inPiecesBody,
} from "./forms-support";

/**
 * Uploads (DECISIONS 11, issue 15): images only, judged by their bytes; at
 * most 10 MB each and 40 MB together; 3 per quote, 10 per service request;
 * streamed to temporary files as they arrive and stored one row per file,
 * byte for byte, with their submission, or nothing stored at all; no
 * temporary file outlives its request.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const quote = {
  first_name: "Marie",
  last_name: "Curie",
  phone: "(989) 555-0161",
  email: "marie@example.com",
  zip: "48603",
  contact_method: "Email",
  quote_for: ["Garage Doors"],
  financing: "No",
  consultation: "Virtual",
  start_time: "Just Shopping",
  existing_customer: "No",
  quote_type: "Residential",
};
const MB = 1024 * 1024;

async function sendQuote(photos: File[]) {
  const fd = toFormData({ ...quote, ...honeypotFields(), ...sumAnswer(), photos });
  return runForm(fullQuoteForm, formPost("/request-quote?type=residential", fd), { db: conn.db, clientIp: nextIp() });
}

async function nothingStored(run: () => Promise<unknown>) {
  const before = [
    await count(conn.db, "quote_requests"),
    await count(conn.db, "uploads"),
    await count(conn.db, "outbox"),
  ];
  await run();
  expect([
    await count(conn.db, "quote_requests"),
    await count(conn.db, "uploads"),
    await count(conn.db, "outbox"),
  ]).toEqual(before);
}

describe("quote photos", () => {
  it("stores each image, checked by its bytes, linked to its quote", async () => {
    const png = pngBytes(2048);
    const outcome = await sendQuote([
      new File([png], "front.png", { type: "image/png" }),
      // A real JPEG with a misleading name and type is still a JPEG.
      new File([jpegBytes(4096)], "side.bin", { type: "application/octet-stream" }),
    ]);
    expect(outcome.ok).toBe(true);
    const stored = await rows<{
      field: string;
      file_name: string;
      mime: string;
      size: number;
      data: Uint8Array;
      submission_id: number;
    }>(
      conn.db,
      `select * from uploads where submission_table = 'quote_requests' and submission_id = ${outcome.submissionId} order by id`,
    );
    expect(stored.map((u) => [u.field, u.file_name, u.mime, u.size])).toEqual([
      ["photos", "front.png", "image/png", 2048],
      ["photos", "side.bin", "image/jpeg", 4096],
    ]);
    expect(Buffer.from(stored[0]!.data).equals(Buffer.from(png))).toBe(true);
    const [mail] = await rows<{ text: string }>(
      conn.db,
      `select text from outbox where source_table = 'quote_requests' and source_id = ${outcome.submissionId} order by id limit 1`,
    );
    expect(mail!.text).toContain("2 photos stored with this request");
  });

  it("a 4th photo: 'You can only upload up to 3 photos.', nothing stored, values kept", async () => {
    await nothingStored(async () => {
      const outcome = await sendQuote([imageFile("1.png"), imageFile("2.png"), imageFile("3.png"), imageFile("4.png")]);
      expect(outcome.status).toBe(400);
      expect(outcome.fieldErrors).toEqual({ photos: ["You can only upload up to 3 photos."] });
      expect(outcome.reply?.error?.photos).toEqual(["You can only upload up to 3 photos."]);
      expect(outcome.reply?.initialValue).toMatchObject({ first_name: "Marie", quote_for: "Garage Doors" });
    });
  });

  it("a refused post that carried photos names their field: the page says to choose them again", async () => {
    const tooMany = await sendQuote([imageFile("1.png"), imageFile("2.png"), imageFile("3.png"), imageFile("4.png")]);
    expect(tooMany.photosDropped).toBe("photos");
    // Photos that were fine, lost with a refusal for another field (no last name).
    const fd = toFormData({
      ...quote,
      last_name: "",
      ...honeypotFields(),
      ...sumAnswer(),
      photos: [imageFile("1.png")],
    });
    const other = await runForm(fullQuoteForm, formPost("/request-quote?type=residential", fd), {
      db: conn.db,
      clientIp: nextIp(),
    });
    expect(other).toMatchObject({ ok: false, photosDropped: "photos" });
    expect(other.fieldErrors.last_name).toBeDefined();
    // No photo chosen (an empty file input still sends a part): nothing was lost.
    const empty = toFormData({ ...quote, last_name: "", ...honeypotFields(), ...sumAnswer() });
    empty.append("photos", new File([], "", { type: "application/octet-stream" }));
    const none = await runForm(fullQuoteForm, formPost("/request-quote?type=residential", empty), {
      db: conn.db,
      clientIp: nextIp(),
    });
    expect(none.ok).toBe(false);
    expect(none.photosDropped).toBeUndefined();
  });

  it("a text file renamed .jpg is refused", async () => {
    await nothingStored(async () => {
      const fake = new File(["just some text, not a picture"], "door.jpg", { type: "image/jpeg" });
      const outcome = await sendQuote([imageFile("ok.png"), fake]);
      expect(outcome.fieldErrors.photos).toEqual([
        '"door.jpg" is not an image. Please choose photos (JPEG, PNG, GIF, WebP or HEIC).',
      ]);
    });
  });

  it("an 11 MB image is refused with a field error and the other values kept", async () => {
    await nothingStored(async () => {
      const outcome = await sendQuote([new File([pngBytes(11 * MB)], "huge.png", { type: "image/png" })]);
      expect(outcome.status).toBe(400);
      expect(outcome.fieldErrors.photos).toEqual(['Each photo must be 10 MB or smaller; "huge.png" is 11.0 MB.']);
      expect(outcome.reply?.initialValue).toMatchObject({ email: "marie@example.com" });
    });
  });

  it("a file far beyond the limit is refused outright (413)", async () => {
    await nothingStored(async () => {
      const outcome = await sendQuote([new File([pngBytes(21 * MB)], "giant.png", { type: "image/png" })]);
      expect(outcome).toMatchObject({ status: 413, message: "Each photo must be 10 MB or smaller." });
    });
  });

  it("an empty file input (no file chosen) is ignored", async () => {
    const outcome = await sendQuote([new File([], "", { type: "application/octet-stream" })]);
    expect(outcome.ok).toBe(true);
    expect(await count(conn.db, "uploads")).toBe(2);
  });

  it("the SPEC §7 quote API: a 'data' JSON part and repeated 'photo' files", async () => {
    const fd = new FormData();
    fd.append(
      "data",
      JSON.stringify({
        ...quote,
        quote_for: ["Loading Docks"],
        business_name: "Lakeside Storage",
        recaptcha_token: await altchaToken(),
      }),
    );
    fd.append("photo", imageFile("dock.png"));
    const response = await apiFormAction(
      fullQuoteForm,
      { request: formPost("/api/store/request-quote/commercial", fd) },
      { db: conn.db, clientIp: nextIp(), overrides: { quote_type: "Commercial" } },
    );
    expect(await response.json()).toEqual({
      success: true,
      message: "Submitted successfully! A representative will reach out within 48 hours.",
    });
    const [row] = await rows<{ id: number; business_name: string; quote_type: string }>(
      conn.db,
      "select id, business_name, quote_type from quote_requests order by id desc limit 1",
    );
    expect(row).toMatchObject({ business_name: "Lakeside Storage", quote_type: "Commercial" });
    expect(
      await rows(
        conn.db,
        `select id from uploads where submission_table = 'quote_requests' and submission_id = ${row!.id}`,
      ),
    ).toHaveLength(1);
  });

  it("the API refuses a 4th photo too", async () => {
    await nothingStored(async () => {
      const fd = new FormData();
      fd.append("data", JSON.stringify({ ...quote, recaptcha_token: "unused" }));
      for (const n of [1, 2, 3, 4]) fd.append("photo", imageFile(`${n}.png`));
      const response = await apiFormAction(
        fullQuoteForm,
        { request: formPost("/api/store/request-quote/residential", fd) },
        { db: conn.db, clientIp: nextIp() },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        success: false,
        message: "Please check the form: You can only upload up to 3 photos.",
      });
    });
  });

  it("keeps a file name's UTF-8 as the browser sent it, and drops any folder in it", async () => {
    const outcome = await sendQuote([imageFile("façade 👍.png"), imageFile("../../etc/porch.png")]);
    expect(outcome.ok).toBe(true);
    const stored = await rows<{ file_name: string }>(
      conn.db,
      `select file_name from uploads where submission_table = 'quote_requests' and submission_id = ${outcome.submissionId} order by id`,
    );
    expect(stored.map((u) => u.file_name)).toEqual(["façade 👍.png", "porch.png"]);
  });
});

describe("service photos", () => {
  const service = {
    name: "Northside Logistics",
    phone: "(517) 555-0190",
    email: "dock@example.com",
    address1: "900 Industrial Parkway",
    city: "Lansing",
    state: "MI",
    zip: "48906",
    country: "United States",
    serviceDate: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
    serviceTime: "Evening (After 4 PM)",
    contactMethod: "Text",
  };
  const servicePost = (photos: File[]) =>
    formPost(
      "/request-service?type=commercial",
      toFormData({ ...service, ...honeypotFields(), ...sumAnswer(), photo: photos }),
    );
  const send = (photos: File[]) =>
    runForm(commercialServiceForm, servicePost(photos), { db: conn.db, clientIp: nextIp() });

  it("takes up to 10 photos, refuses an 11th", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => imageFile(`p${i}.png`));
    const ok = await send(ten);
    expect(ok.ok).toBe(true);
    expect(
      await rows(
        conn.db,
        `select id from uploads where submission_table = 'service_requests' and submission_id = ${ok.submissionId}`,
      ),
    ).toHaveLength(10);

    const before = await count(conn.db, "service_requests");
    const tooMany = await send([...ten, imageFile("p10.png")]);
    expect(tooMany.fieldErrors).toEqual({ photo: ["You can only upload up to 10 photos."] });
    expect(await count(conn.db, "service_requests")).toBe(before);
  });
});

/**
 * A photo-like file of exactly `size` bytes: random (incompressible) bytes in
 * a well-formed frame (PNG: signature, IHDR, one IDAT holding the rest; JPEG:
 * SOI and APP0), so file-type recognises it as a real image.
 */
function photo(name: string, size: number, kind: "png" | "jpeg" = "png"): File {
  const bytes = randomBytes(size);
  if (kind === "jpeg") bytes.set(jpegBytes(12).subarray(0, 12));
  else {
    bytes.set(pngBytes(33).subarray(0, 33)); // signature (8) + IHDR chunk (4 + 4 + 13 + 4, its CRC left as is)
    bytes.writeUInt32BE(size - 33 - 12, 33); // IDAT length: the rest, less its header and CRC
    bytes.write("IDAT", 37, "latin1");
  }
  return new File([bytes], name, { type: `image/${kind}` });
}
const sha256 = async (data: Blob | Uint8Array) =>
  createHash("sha256")
    .update(data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : data)
    .digest("hex");

/** Files in this process's upload folder right now. */
function tempFiles() {
  const dir = uploadTempDir();
  return dir && existsSync(dir) ? readdirSync(dir).length : 0;
}

/** The same request with its body arriving in pieces of `piece` bytes (no Content-Length): delimiters fall across them. */
async function inPieces(request: Request, piece: number): Promise<Request> {
  const body = inPiecesBody(new Uint8Array(await request.arrayBuffer()), piece);
  return new Request(request.url, { method: "POST", headers: request.headers, body, duplex: "half" } as RequestInit);
}

describe("uploads in bounded memory", () => {
  const service = {
    name: "Harbor Cold Storage",
    phone: "(989) 555-0112",
    email: "ops@example.com",
    address1: "12 Dock Road",
    city: "Bay City",
    state: "MI",
    zip: "48708",
    country: "United States",
    serviceDate: new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10),
    serviceTime: "Evening (After 4 PM)",
    contactMethod: "Email",
  };
  const servicePost = (photos: File[]) =>
    formPost(
      "/request-service?type=commercial",
      toFormData({ ...service, ...honeypotFields(), ...sumAnswer(), photo: photos }),
    );

  it("a legal multi-file post stores one row per file, byte for byte (sha256), whatever the chunking", async () => {
    const photos = [
      photo("a.png", 3 * MB + 17),
      photo("b.jpg", 1 * MB, "jpeg"),
      photo("c.png", 200_000),
      photo("d.jpg", 5 * MB - 3, "jpeg"),
    ];
    const outcome = await runForm(commercialServiceForm, await inPieces(servicePost(photos), 7919), {
      db: conn.db,
      clientIp: nextIp(),
    });
    expect(outcome).toMatchObject({ message: "Submitted successfully!", ok: true, fieldErrors: {} });
    const stored = await rows<{ file_name: string; mime: string; size: number; data: Uint8Array }>(
      conn.db,
      `select file_name, mime, size, data from uploads where submission_table = 'service_requests' and submission_id = ${outcome.submissionId} order by id`,
    );
    expect(stored.map((u) => [u.file_name, u.mime, u.size])).toEqual([
      ["a.png", "image/png", 3 * MB + 17],
      ["b.jpg", "image/jpeg", MB],
      ["c.png", "image/png", 200_000],
      ["d.jpg", "image/jpeg", 5 * MB - 3],
    ]);
    for (const [i, row] of stored.entries()) expect(await sha256(row.data)).toBe(await sha256(photos[i]!));
  });

  it("photos over 40 MB together: a field error saying so, nothing stored, other values kept", async () => {
    const before = [await count(conn.db, "service_requests"), await count(conn.db, "uploads")];
    const filesBefore = tempFiles();
    // Five photos of 9 MB: each within its 10 MB, 45 MB together.
    const outcome = await runForm(
      commercialServiceForm,
      servicePost(Array.from({ length: 5 }, (_, i) => imageFile(`big${i}.png`, 9 * MB))),
      {
        db: conn.db,
        clientIp: nextIp(),
      },
    );
    expect(outcome.status).toBe(400);
    expect(outcome.fieldErrors).toEqual({
      photo: ["Your photos add up to 45.0 MB; please send at most 40 MB in all (fewer or smaller photos)."],
    });
    expect(outcome.reply?.initialValue).toMatchObject({ name: "Harbor Cold Storage", city: "Bay City" });
    expect([await count(conn.db, "service_requests"), await count(conn.db, "uploads")]).toEqual(before);
    expect(tempFiles()).toBe(filesBefore); // none written past the 40 MB, and the rest removed at once
  });

  it("no temporary file outlives its request: stored, refused by a rule, refused by the schema, or cut off", async () => {
    const ip = () => ({ db: conn.db, clientIp: nextIp() });
    expect((await runForm(commercialServiceForm, servicePost([photo("ok.png", MB)]), ip())).ok).toBe(true);
    expect(tempFiles()).toBe(0);
    const fake = new File(["plain text"], "x.jpg", { type: "image/jpeg" });
    expect((await runForm(commercialServiceForm, servicePost([photo("ok.png", MB), fake]), ip())).status).toBe(400);
    expect(tempFiles()).toBe(0);
    // Valid photos with a schema error elsewhere: the photos were accepted, then the form refused.
    const noCity = formPost(
      "/request-service?type=commercial",
      toFormData({ ...service, city: "", ...honeypotFields(), ...sumAnswer(), photo: [photo("ok.png", MB)] }),
    );
    const refused = await runForm(commercialServiceForm, noCity, ip());
    expect(refused.fieldErrors.city).toBeDefined();
    expect(tempFiles()).toBe(0);
    // A body that ends in the middle of a photo.
    const full = servicePost([photo("cut.png", 2 * MB)]);
    const whole = new Uint8Array(await full.arrayBuffer());
    const cut = new Request(full.url, {
      method: "POST",
      headers: full.headers,
      body: whole.slice(0, whole.length - MB),
    });
    expect((await runForm(commercialServiceForm, cut, ip())).status).toBe(400);
    expect(tempFiles()).toBe(0);
  });

  it("readBody keeps accepted photos on disk until cleanup() (a retried transaction reads them again)", async () => {
    const before = tempFiles();
    const parsed = await readBody(
      servicePost([photo("p1.png", 300_000), photo("p2.png", 300_000)]),
      commercialServiceForm.uploads,
    );
    expect(parsed.uploads).toHaveLength(2);
    expect(tempFiles()).toBe(before + 2);
    for (const upload of parsed.uploads) expect(existsSync(upload.path)).toBe(true);
    await parsed.cleanup();
    await parsed.cleanup(); // twice is fine
    expect(tempFiles()).toBe(before);
  });
});

describe("the photo field says the limits the server applies", () => {
  const hint = (rule: { maxFiles: number; maxBytes: number; tooManyMessage: string }) =>
    renderToStaticMarkup(
      createElement(PhotoField, { formId: "f", rule: { field: "photo", ...rule }, label: "Photos" }),
    );

  it("service photos (10 × 10 MB could pass the total): each and in all; quote photos (3 × 10 MB cannot): each only", () => {
    expect(hint(commercialServiceForm.uploads!)).toContain(
      "Up to 10 photos (JPEG, PNG, GIF, WebP or HEIC), 10 MB each, at most 40 MB in all.",
    );
    expect(hint(fullQuoteForm.uploads!)).toContain("Up to 3 photos (JPEG, PNG, GIF, WebP or HEIC), 10 MB each.");
  });
});
