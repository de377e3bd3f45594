import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { apiFormAction } from "~/forms/actions.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays } from "~/booking/availability";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { PREVIEW_FIELD, PREVIEW_VALUE } from "~/booking/form/identity";
import { simpleQuoteForm } from "~/forms/quote/handle.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import { INVALID_ZIP_MESSAGE, OFFICE_WILL_CONFIRM } from "~/maps/coverage";
import { weekdayOf } from "~/booking/service-price";
import { loader as serviceAreaApi } from "~/routes/api/service-area";
import { createTestDatabase } from "../support/db";
import { altchaToken, count, formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { residentialFields } from "./payments-support";

/**
 * The service area before the charge (issue 29 item 1, DECISIONS 30), on the
 * real database with the sandbox gateway: a residential booking whose ZIP is
 * outside every 50-mile circle, or no ZIP at all, is refused beside its field
 * with nothing held, charged or stored; the no-JS "Show price" answer says
 * the same; quotes and commercial service take any ZIP and say the office
 * will confirm coverage.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const MORNING = "Morning (8 AM to 11 AM)";
const TRAVERSE_CITY = "49684";
const OUTSIDE =
  "We don't book online visits to ZIP 49684: it is about 123 miles from our nearest service location, Saginaw. Call us at (989) 555-0102, or ask for a quote and we'll tell you what we can do.";

/** A Saturday at least two weeks out. */
function saturday(): string {
  let date = addDays(todayInDetroit(), 14);
  while (weekdayOf(date) !== 6) date = addDays(date, 1);
  return date;
}

const booking = (over: Record<string, string> = {}) =>
  residentialFields(saturday(), {
    phone: "(231) 555-0142",
    email: `area-${crypto.randomUUID().slice(0, 8)}@example.com`,
    address1: "12 Front St",
    city: "Traverse City",
    zip: TRAVERSE_CITY,
    ...over,
  });

const PATH = "/request-service?type=residential";
const htmlPost = (path: string, fields: Record<string, string>) =>
  formPost(path, toFormData({ ...fields, ...honeypotFields(), ...sumAnswer(), submission_key: crypto.randomUUID() }));
const run = (def: FormDefinition, request: Request) => runForm(def, request, { db: conn.db, clientIp: nextIp() });

async function state() {
  return {
    payments: await count(conn.db, "payments"),
    bookings: await count(conn.db, "service_requests"),
    holds: await count(conn.db, "service_slot_holds"),
    mail: await count(conn.db, "outbox"),
  };
}

describe("service area before the charge", () => {
  it("a booking to Traverse City (49684) is refused beside its ZIP, with Saginaw's phone: nothing held, charged or stored", async () => {
    const before = await state();
    const outcome = await run(residentialServiceForm as FormDefinition, htmlPost(PATH, booking()));
    expect(outcome).toMatchObject({ ok: false, status: 400, message: OUTSIDE, fieldErrors: { zip: [OUTSIDE] } });
    expect(outcome.reply?.error).toMatchObject({ zip: [OUTSIDE] });
    // No card can fix it: the card comes back empty without the line asking for it again.
    expect(outcome.cardless).toBe(true);
    expect(outcome.notice).toBeUndefined();
    expect(await state()).toEqual(before);
  });

  it.each(["49503", "49001"])(
    "%s (outside every circle) is refused through the API too, nothing charged",
    async (zip) => {
      const before = await state();
      const body = toFormData({ ...booking({ zip }), recaptcha_token: await altchaToken() });
      const response = await apiFormAction(
        residentialServiceForm,
        { request: formPost("/api/store/request-service/residential", body, { Origin: "", "Sec-Fetch-Site": "" }) },
        { db: conn.db, clientIp: nextIp() },
      );
      expect(response.status).toBe(400);
      const json = (await response.json()) as { success: boolean; message: string };
      expect(json.success).toBe(false);
      expect(json.message).toMatch(
        new RegExp(`^We don't book online visits to ZIP ${zip}: .* Lansing\\. Call us at \\(517\\) 555-0103, `),
      );
      expect(await state()).toEqual(before);
    },
  );

  it.each(["00000", "1234", "ABCDE"])("%s is no ZIP code: a field error, nothing charged", async (zip) => {
    const before = await state();
    const outcome = await run(residentialServiceForm as FormDefinition, htmlPost(PATH, booking({ zip })));
    expect(outcome.ok).toBe(false);
    expect(outcome.fieldErrors.zip).toEqual([INVALID_ZIP_MESSAGE]);
    expect(await state()).toEqual(before);
  });

  it("inside (Flint, 48502) the same booking is taken and charged once", async () => {
    const before = await state();
    const outcome = await run(residentialServiceForm as FormDefinition, htmlPost(PATH, booking({ zip: "48502" })));
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(await state()).toMatchObject({ payments: before.payments + 1, bookings: before.bookings + 1 });
  });

  it('"Show price" without JavaScript says the ZIP\'s answer beside the field, and nothing else is checked', async () => {
    const before = await state();
    const preview = (zip: string) =>
      run(
        residentialServiceForm as FormDefinition,
        htmlPost(PATH, { ...booking({ zip }), cardNumber: "", [PREVIEW_FIELD]: PREVIEW_VALUE }),
      );
    const outside = await preview(TRAVERSE_CITY);
    expect(outside).toMatchObject({ preview: true, status: 200, fieldErrors: { zip: [OUTSIDE] } });
    expect(outside.reply?.error).toEqual({ zip: [OUTSIDE] });
    expect(outside.reply?.initialValue).toMatchObject({ zip: TRAVERSE_CITY });
    expect((await preview("99999")).fieldErrors).toEqual({ zip: [INVALID_ZIP_MESSAGE] });
    expect((await preview("48226")).fieldErrors).toEqual({});
    expect((await preview("")).fieldErrors).toEqual({});
    expect(await state()).toEqual(before);
  });

  it("a quote from Traverse City is taken, told the office will confirm coverage (page and e-mail)", async () => {
    const fields = {
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "(231) 555-0142",
      email: `quote-${crypto.randomUUID().slice(0, 8)}@example.com`,
      zip: TRAVERSE_CITY,
      contact_method: "Phone Call",
      quote_for: "Garage Doors",
      financing: "No",
      consultation: "Not Interested",
      start_time: "ASAP",
      quote_type: "Residential",
    };
    const outcome = await run(simpleQuoteForm as FormDefinition, htmlPost("/residential-garage-doors", fields));
    expect(outcome.ok).toBe(true);
    expect(outcome.message).toBe(
      `Submitted successfully! A representative will reach out within 48 hours. ${OFFICE_WILL_CONFIRM}`,
    );
    const mail = await rows<{ text: string }>(
      conn.db,
      `select text from outbox where source_table = 'quote_requests' and source_id = ${outcome.submissionId} and "to" = '${fields.email}'`,
    );
    expect(mail[0]?.text).toContain(OFFICE_WILL_CONFIRM);

    const inside = await run(
      simpleQuoteForm as FormDefinition,
      htmlPost("/residential-garage-doors", { ...fields, zip: "48502" }),
    );
    expect(inside.message).toBe("Submitted successfully! A representative will reach out within 48 hours.");
  });

  it("a commercial service request from Grand Rapids is taken, told the office will confirm coverage", async () => {
    const fields = {
      name: "Westside Logistics",
      phone: "(616) 555-0190",
      email: "dock@example.com",
      address1: "900 Industrial Parkway",
      city: "Grand Rapids",
      state: "MI",
      zip: "49503",
      country: "United States",
      serviceDate: saturday(),
      serviceTime: MORNING,
      contactMethod: "Email",
    };
    const outcome = await run(
      commercialServiceForm as FormDefinition,
      htmlPost("/commercial-schedule-service", fields),
    );
    expect(outcome).toMatchObject({ ok: true, message: `Submitted successfully! ${OFFICE_WILL_CONFIRM}` });
    const inside = await run(
      commercialServiceForm as FormDefinition,
      htmlPost("/commercial-schedule-service", { ...fields, zip: "48906" }),
    );
    expect(inside).toMatchObject({ ok: true, message: "Submitted successfully!" });
  });

  it("GET /api/service-area answers a ZIP as the form asks it: inside or outside with the nearest location, cached an hour; bad input 400", async () => {
    const ask = (query: string) =>
      serviceAreaApi({ request: new Request(`http://localhost/api/service-area${query}`) } as Parameters<
        typeof serviceAreaApi
      >[0]);
    const outside = await ask("?zip=49684");
    expect(outside.status).toBe(200);
    expect(outside.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(await outside.json()).toEqual({
      zip: "49684",
      status: "outside",
      inside: false,
      nearest: { name: "Saginaw", phone: "(989) 555-0102", phoneHref: "tel:+19895550102", miles: 122.9 },
    });
    expect(await (await ask("?zip=48226")).json()).toMatchObject({
      status: "inside",
      inside: true,
      nearest: { name: "Pontiac" },
    });
    expect(await (await ask("?zip=00000")).json()).toEqual({
      zip: "00000",
      status: "unknown",
      inside: false,
      nearest: null,
    });
    for (const query of ["", "?zip=4850", "?zip=" + "9".repeat(5000)]) {
      const bad = await ask(query);
      expect(bad.status).toBe(400);
      expect(bad.headers.get("Cache-Control")).toBe("no-store");
    }
  });
});
