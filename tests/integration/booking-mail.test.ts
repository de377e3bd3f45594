import { changeDeadline } from "~/booking/cutoff";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { changePolicy, WHAT_HAPPENS_NEXT } from "~/booking/policy";
import { mailRescheduled, type BookingMailFacts } from "~/mail/booking-mail.server";
import { renderSubmissionMail, type SubmissionMail } from "~/mail/render.server";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";

/**
 * The mails of a visit moved to another window (issue 29 item 8), written to the outbox: the
 * visitor's says from, to, the money and links back to the booking, with the invitation updated
 * (METHOD:REQUEST, the same UID, the next SEQUENCE, the new window in Detroit time); the
 * company's says what changed.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const from = "Saturday, January 9, 2027, Morning (8 AM to 11 AM)";
const to = "Saturday, July 10, 2027, Late Afternoon (2 PM to 4 PM)";
const facts: BookingMailFacts = {
  id: 4242,
  reference: "DV-7K3M-Q9",
  name: "Jane Doe",
  email: "jane.moved@example.com",
  visit: to,
  rows: [
    { label: "Booking reference", value: "DV-7K3M-Q9" },
    { label: "Visit", value: to },
    { label: "Address", value: "12 Elm St, Flint, MI 48503" },
    { label: "Amount", value: "$199.00" },
    { label: "Card", value: "Visa ending in 4242" },
  ],
  invite: {
    uid: "service-visit-4242@example.com",
    title: "Dover Doors & Windows service visit",
    description: `Garage door service visit. Moved from ${from}.`,
    location: "12 Elm St, Flint, MI 48503",
    date: "2027-07-10",
    startHour: 14,
    startMinute: 0,
    durationMinutes: 120,
  },
  sequence: 1,
  manageUrl: "http://localhost:3000/booking/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
  deadline: changeDeadline("2027-07-10", "Late Afternoon (2 PM to 4 PM)", 24),
  policy: { next: WHAT_HAPPENS_NEXT, changing: changePolicy(24) },
};
const money = "The $40.00 difference is charged to Visa ending in 4242.";

type Stored = {
  to: string;
  kind: string;
  subject: string;
  text: string;
  content: SubmissionMail;
  attachments: { filename: string; contentType: string; content: string }[] | null;
};

describe("mailRescheduled", () => {
  it("the visitor: from, to, the money, the booking's link, and the invitation updated; the company: what changed", async () => {
    await mailRescheduled(conn.db, facts, { from, to, money });
    const [visitor, staff] = await rows<Stored>(
      conn.db,
      `select "to", kind, subject, text, content, attachments from outbox where source_table = 'service_requests' and source_id = ${facts.id} order by id`,
    );

    expect(visitor).toMatchObject({ to: facts.email, kind: "receipt" });
    expect(visitor!.subject).toBe(`Your service visit is moved to ${to} — Dover Doors & Windows`);
    expect(visitor!.text).toContain("Your service visit is moved\n");
    expect(visitor!.text).toContain("\nBooking reference: DV-7K3M-Q9\n");
    expect(visitor!.text).toContain(`\nNew visit: ${to}\n`);
    expect(visitor!.text).toContain(`\nWas: ${from}\n`);
    expect(visitor!.text).toContain(`\nYour money: ${money}\n`);
    expect(visitor!.text).toContain(WHAT_HAPPENS_NEXT);
    expect(visitor!.text).toContain(changePolicy(24));
    expect(visitor!.text).toContain(`See, change or cancel your booking:\n${facts.manageUrl}\n`);
    expect(renderSubmissionMail(visitor!.content).html).toContain(`href="${facts.manageUrl}"`);

    const [ics] = visitor!.attachments!;
    expect(ics).toMatchObject({
      filename: "service-visit.ics",
      contentType: "text/calendar; charset=utf-8; method=REQUEST",
    });
    expect(ics!.content).toMatch(/^METHOD:REQUEST\r$/m);
    expect(ics!.content).toMatch(/^UID:service-visit-4242@example\.com\r$/m);
    expect(ics!.content).toMatch(/^SEQUENCE:1\r$/m);
    // 2 PM in Detroit in July (EDT, UTC-4) is 18:00 UTC.
    expect(ics!.content).toMatch(/^DTSTART:20270710T180000Z\r$/m);

    expect(staff).toMatchObject({ to: "info@example.com", kind: "company", attachments: null });
    expect(staff!.subject).toBe(`Booking DV-7K3M-Q9 moved to ${to}`);
    expect(staff!.text).toContain(`\nFrom: ${from}\n`);
    expect(staff!.text).toContain(`\nTo: ${to}\n`);
    expect(staff!.text).toContain(`\nMoney (as the visitor was told): ${money}\n`);
    expect(staff!.text).toContain(
      "The slots: The place in the old window is free again; one in the new window is taken.",
    );
    expect(staff!.text).toMatch(/\nOnline changes: Yes, from the link in their receipt, until Friday, July 9, 2027/);
    expect(staff!.text).not.toContain(facts.manageUrl!);
  });
});
