import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { apiFormAction, runForm } from "~/forms/pipeline.server";
import { fullQuoteForm } from "~/forms/quote/handle.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { createTestDatabase } from "../support/db";
import { altchaToken, count, formPost, honeypotFields, imageFile, jpegBytes, pngBytes, rows, sumAnswer, toFormData, nextIp } from "./forms-support";

/**
 * Uploads (DECISIONS 11): images only, judged by their bytes; at most 10 MB
 * each; 3 per quote, 10 per service request; stored in PostgreSQL with their
 * submission, or nothing stored at all.
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
  const before = [await count(conn.db, "quote_requests"), await count(conn.db, "uploads"), await count(conn.db, "outbox")];
  await run();
  expect([await count(conn.db, "quote_requests"), await count(conn.db, "uploads"), await count(conn.db, "outbox")]).toEqual(before);
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
    const stored = await rows<{ field: string; file_name: string; mime: string; size: number; data: Uint8Array; submission_id: number }>(
      conn.db,
      `select * from uploads where submission_table = 'quote_requests' and submission_id = ${outcome.submissionId} order by id`,
    );
    expect(stored.map((u) => [u.field, u.file_name, u.mime, u.size])).toEqual([
      ["photos", "front.png", "image/png", 2048],
      ["photos", "side.bin", "image/jpeg", 4096],
    ]);
    expect(Buffer.from(stored[0]!.data).equals(Buffer.from(png))).toBe(true);
    const [mail] = await rows<{ text: string }>(conn.db, `select text from outbox where source_table = 'quote_requests' and source_id = ${outcome.submissionId} order by id limit 1`);
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

  it("a text file renamed .jpg is refused", async () => {
    await nothingStored(async () => {
      const fake = new File(["just some text, not a picture"], "door.jpg", { type: "image/jpeg" });
      const outcome = await sendQuote([imageFile("ok.png"), fake]);
      expect(outcome.fieldErrors.photos).toEqual(['"door.jpg" is not an image. Please choose photos (JPEG, PNG, GIF, WebP or HEIC).']);
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
    fd.append("data", JSON.stringify({ ...quote, quote_for: ["Loading Docks"], business_name: "Lakeside Storage", recaptcha_token: await altchaToken() }));
    fd.append("photo", imageFile("dock.png"));
    const response = await apiFormAction(fullQuoteForm, { request: formPost("/api/store/request-quote/commercial", fd) }, { db: conn.db, clientIp: nextIp(), overrides: { quote_type: "Commercial" } });
    expect(await response.json()).toEqual({ success: true, message: "Submitted successfully! A representative will reach out within 48 hours." });
    const [row] = await rows<{ id: number; business_name: string; quote_type: string }>(conn.db, "select id, business_name, quote_type from quote_requests order by id desc limit 1");
    expect(row).toMatchObject({ business_name: "Lakeside Storage", quote_type: "Commercial" });
    expect(await rows(conn.db, `select id from uploads where submission_table = 'quote_requests' and submission_id = ${row!.id}`)).toHaveLength(1);
  });

  it("the API refuses a 4th photo too", async () => {
    await nothingStored(async () => {
      const fd = new FormData();
      fd.append("data", JSON.stringify({ ...quote, recaptcha_token: "unused" }));
      for (const n of [1, 2, 3, 4]) fd.append("photo", imageFile(`${n}.png`));
      const response = await apiFormAction(fullQuoteForm, { request: formPost("/api/store/request-quote/residential", fd) }, { db: conn.db, clientIp: nextIp() });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, message: "Please check the form: You can only upload up to 3 photos." });
    });
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
  const send = (photos: File[]) =>
    runForm(commercialServiceForm, formPost("/request-service?type=commercial", toFormData({ ...service, ...sumAnswer(), photo: photos })), { db: conn.db, clientIp: nextIp() });

  it("takes up to 10 photos, refuses an 11th", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => imageFile(`p${i}.png`));
    const ok = await send(ten);
    expect(ok.ok).toBe(true);
    expect(await rows(conn.db, `select id from uploads where submission_table = 'service_requests' and submission_id = ${ok.submissionId}`)).toHaveLength(10);

    const before = await count(conn.db, "service_requests");
    const tooMany = await send([...ten, imageFile("p10.png")]);
    expect(tooMany.fieldErrors).toEqual({ photo: ["You can only upload up to 10 photos."] });
    expect(await count(conn.db, "service_requests")).toBe(before);
  });
});
