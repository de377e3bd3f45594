import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { serviceRequests } from "@db/schema";
import { insertBooking } from "~/booking/book.server";
import { cancelBooking } from "~/booking/cancel.server";
import { windowStart } from "~/booking/cutoff";
import { visitDay } from "~/booking/visit-day";
import {
  dropReminder,
  moveReminder,
  REMINDER_QUEUE,
  reminderDueAt,
  reminderPlace,
  scheduleReminder,
  sendReminder,
  startReminderWorker,
  type ReminderJob,
} from "~/booking/reminders.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays } from "~/booking/availability";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import { decryptText } from "~/lib/crypto.server";
import { env } from "~/lib/env.server";
import type { PaymentGateway } from "~/payments/gateway";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { weekdayOf } from "~/booking/service-price";
import { createTestDatabase } from "../support/db";
import { formPost, honeypotFields, nextIp, rows, SITE, sumAnswer, toFormData } from "./forms-support";
import { residentialFields } from "./payments-support";

/**
 * The reminder e-mail of a booked visit (issue 29 item 6, DECISIONS 37) on the real database: its
 * pg-boss job written with the booking (due REMINDER_LEAD_HOURS, 48 h by default, before the
 * window, the manage token encrypted), none for a visit less than that ahead, removed when the
 * booking is cancelled, moved with the visit; the job mails once (a rerun sends nothing), and
 * sends nothing for a cancelled booking or a visit that moved since; the worker runs a due job.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const MORNING = "Morning (8 AM to 11 AM)";
const EVENING = "Evening (After 4 PM)";
const HOUR = 3_600_000;
/** The default lead (DECISIONS 37): a day before online changes close at the 24-hour cut-off. */
const LEAD = 48 * HOUR;

let weeks = 0;
/** A coming Tuesday (never a holiday's price), a different week for each booking. */
function tuesday(): string {
  let date = addDays(todayInDetroit(), 7 * ++weeks);
  while (weekdayOf(date) !== 2) date = addDays(date, 1);
  return date;
}

/** A paid booking made through the form: its manage token and row. */
async function book() {
  const serviceDate = tuesday();
  const fields = residentialFields(serviceDate, { email: `remind-${crypto.randomUUID().slice(0, 8)}@example.com` });
  const body = toFormData({ ...fields, ...honeypotFields(), ...sumAnswer(), submission_key: crypto.randomUUID() });
  const outcome = await runForm(residentialServiceForm as FormDefinition, formPost("/request-service", body), {
    db: conn.db,
    clientIp: nextIp(),
  });
  expect(outcome.ok).toBe(true);
  const token = /^\/booking\/([A-Za-z0-9_-]{43})\?booked$/.exec(outcome.redirectTo!)![1]!;
  const [row] = await rows<{ id: number; reference: string }>(
    conn.db,
    `select id, reference from service_requests where email = '${fields.email}'`,
  );
  return { token, serviceDate, email: fields.email, ...row! };
}

type JobRow = { id: string; state: string; due_ms: number; data: ReminderJob | string; raw: string };

/** The booking's reminder jobs not yet run (created: waiting for their time). */
async function waiting(bookingId: number) {
  const found = await rows<JobRow>(
    conn.db,
    `select id, state::text as state, extract(epoch from start_after)::float8 * 1000 as due_ms, data, data::text as raw
       from pgboss.job where name = '${REMINDER_QUEUE}' and singleton_key = 'booking:${bookingId}' and state = 'created'`,
  );
  return found.map((job) => ({
    ...job,
    due: new Date(Number(job.due_ms)),
    data: (typeof job.data === "string" ? JSON.parse(job.data) : job.data) as ReminderJob,
  }));
}

type MailRow = { to: string; subject: string; text: string; kind: string };
const reminderMails = (bookingId: number) =>
  rows<MailRow>(
    conn.db,
    `select "to", subject, text, kind from outbox
      where source_table = 'service_requests' and source_id = ${bookingId} and subject like 'Reminder:%' order by id`,
  );
const reminderEvents = (bookingId: number) =>
  rows<{ note: string; to_date: string }>(
    conn.db,
    `select note, to_date::text as to_date from booking_events where service_request_id = ${bookingId} and kind = 'reminder sent'`,
  );

describe("the reminder's job", () => {
  it("a booking more than two days ahead gets one, due 48 h before its window, the token encrypted (bound to the booking)", async () => {
    expect(env().REMINDER_LEAD_HOURS).toBe(48);
    const b = await book();
    const jobs = await waiting(b.id);
    expect(jobs).toHaveLength(1);
    const [job] = jobs;
    expect(job!.due.toISOString()).toBe(new Date(windowStart(b.serviceDate, MORNING).getTime() - LEAD).toISOString());
    expect(job!.due.toISOString()).toBe(reminderDueAt(b.serviceDate, MORNING).toISOString());
    expect(job!.data).toMatchObject({ bookingId: b.id, serviceDate: b.serviceDate, serviceTime: MORNING });
    // Never in clear; it opens only as this booking's job.
    expect(job!.raw).not.toContain(b.token);
    expect(job!.data.token).toMatch(/^v2\./);
    expect(decryptText(job!.data.token, reminderPlace(b.id))).toBe(b.token);
    expect(() => decryptText(job!.data.token, reminderPlace(b.id + 1))).toThrow();
  });

  it("a booking less than the lead time ahead gets none", async () => {
    // Tomorrow's evening window: its reminder would have been due yesterday afternoon.
    const today = addDays(todayInDetroit(), 1);
    const booked = await conn.db.transaction((tx) =>
      insertBooking(
        tx,
        {
          kind: "residential",
          name: "Late Booker",
          phone: "(810) 555-0142",
          email: "late@example.com",
          address1: "1 Short Notice Rd",
          city: "Flint",
          state: "MI",
          zip: "48503",
          country: "United States",
          serviceDate: today,
          serviceTime: EVENING,
          contactMethod: "Phone Call",
        },
        "Booked for today.",
      ),
    );
    expect(await waiting(booked.id)).toHaveLength(0);
  });

  it("the rule at its edge: a minute before the reminder is due, a job; at that moment, none", async () => {
    const visit = { id: 900_001, serviceDate: "2027-06-15", serviceTime: MORNING };
    const due = reminderDueAt(visit.serviceDate, visit.serviceTime);
    expect(await conn.db.transaction((tx) => scheduleReminder(tx, visit, "t".repeat(43), due))).toBeNull();
    expect(await waiting(visit.id)).toHaveLength(0);
    const at = await conn.db.transaction((tx) =>
      scheduleReminder(tx, visit, "t".repeat(43), new Date(due.getTime() - 60_000)),
    );
    expect(at?.toISOString()).toBe("2027-06-13T12:00:00.000Z");
    expect(await waiting(visit.id)).toHaveLength(1);
    // Scheduled twice (a caller that should have moved it): still one waiting job per booking.
    await conn.db.transaction((tx) => scheduleReminder(tx, visit, "t".repeat(43), new Date("2027-01-01T00:00:00Z")));
    expect(await waiting(visit.id)).toHaveLength(1);
    await conn.db.transaction((tx) => dropReminder(tx, visit.id));
    expect(await waiting(visit.id)).toHaveLength(0);
  });

  it("counts real hours across a daylight-saving change: 8 AM EDT on 15 March 2027 is reminded at 7 AM EST two days before", async () => {
    // The clocks go forward on 14 March 2027: a visit the day after is reminded 48 real hours before.
    const visit = { id: 900_002, serviceDate: "2027-03-15", serviceTime: MORNING };
    await conn.db.transaction((tx) => scheduleReminder(tx, visit, "t".repeat(43), new Date("2027-01-01T00:00:00Z")));
    const [job] = await waiting(visit.id);
    expect(job?.due.toISOString()).toBe("2027-03-13T12:00:00.000Z");
    // And when the clocks go back (1 November 2026): 8 AM EST on the 2nd (13:00Z) is reminded at 9 AM EDT on 31 October.
    expect(reminderDueAt("2026-11-02", MORNING).toISOString()).toBe("2026-10-31T13:00:00.000Z");
    expect(reminderDueAt("2026-11-03", MORNING).toISOString()).toBe("2026-11-01T13:00:00.000Z");
    await conn.db.transaction((tx) => dropReminder(tx, visit.id));
  });

  it("is removed when the booking is cancelled, and an old copy of it mails nothing", async () => {
    const b = await book();
    const [job] = await waiting(b.id);
    expect(job).toBeDefined();
    expect(await cancelBooking(conn.db, b.token)).toMatchObject({ ok: true, status: 200 });
    expect(await waiting(b.id)).toHaveLength(0);
    // A job already in a worker's hands when the cancellation committed: it finds the booking cancelled.
    const due = reminderDueAt(b.serviceDate, MORNING);
    expect(await sendReminder(conn.db, job!.data, new Date(due.getTime() + 1_000))).toBe("cancelled");
    expect(await reminderMails(b.id)).toHaveLength(0);
  });

  it("goes with the booking even while its refund is not confirmed (cancelled at once), and an old copy mails nothing", async () => {
    const b = await book();
    const [job] = await waiting(b.id);
    expect(job).toBeDefined();
    const refusing: PaymentGateway = {
      ...createSandboxGateway({ db: conn.db }),
      void: async () => ({ status: "declined", message: "The transaction cannot be voided." }),
      refund: async () => ({ status: "unknown", message: "No answer from the processor." }),
    };
    expect(await cancelBooking(conn.db, b.token, { gateway: refusing })).toMatchObject({
      ok: true,
      status: 200,
      message:
        "Your booking is cancelled. A refund of $129.95 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day.",
    });
    expect(await waiting(b.id)).toHaveLength(0);
    const due = reminderDueAt(b.serviceDate, MORNING);
    expect(await sendReminder(conn.db, job!.data, new Date(due.getTime() + 1_000))).toBe("cancelled");
    expect(await reminderMails(b.id)).toHaveLength(0);
  });

  it("moves with the visit: the old one removed, one at the new time; the old one, run anyway, mails nothing", async () => {
    const b = await book();
    const [old] = await waiting(b.id);
    const later = addDays(b.serviceDate, 2);
    // What the reschedule does, in its transaction: the booking's new time, then its reminder moved.
    const due = await conn.db.transaction(async (tx) => {
      await tx
        .update(serviceRequests)
        .set({ serviceDate: later, serviceTime: EVENING, bookingStatus: "rescheduled" })
        .where(eq(serviceRequests.id, b.id));
      return moveReminder(tx, { id: b.id, serviceDate: later, serviceTime: EVENING }, b.token);
    });
    expect(due?.toISOString()).toBe(new Date(windowStart(later, EVENING).getTime() - LEAD).toISOString());
    const jobs = await waiting(b.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.id).not.toBe(old!.id);
    expect(jobs[0]!.due.toISOString()).toBe(due!.toISOString());
    expect(jobs[0]!.data).toMatchObject({ serviceDate: later, serviceTime: EVENING });
    expect(decryptText(jobs[0]!.data.token, reminderPlace(b.id))).toBe(b.token);

    // The old job (had it been running already): stale, nothing sent.
    const oldDue = reminderDueAt(b.serviceDate, MORNING);
    expect(await sendReminder(conn.db, old!.data, new Date(oldDue.getTime() + 1_000))).toBe("moved");
    expect(await reminderMails(b.id)).toHaveLength(0);
    // The new one: a rescheduled booking gets its reminder, for its new time.
    expect(await sendReminder(conn.db, jobs[0]!.data, new Date(due!.getTime() + 1_000))).toBe("sent");
    const [mail] = await reminderMails(b.id);
    expect(mail?.subject).toMatch(/^Reminder: your service visit on \w+day, \w+ \d+, \d{4}, Evening \(After 4 PM\) — /);

    // Moved again to within the lead time of its window: the reminder goes, none replaces it.
    const soon = new Date(reminderDueAt(later, MORNING).getTime() + 60_000);
    expect(
      await conn.db.transaction((tx) =>
        moveReminder(tx, { id: b.id, serviceDate: later, serviceTime: MORNING }, b.token, soon),
      ),
    ).toBeNull();
    expect(await waiting(b.id)).toHaveLength(0);
  });
});

describe("the reminder's run", () => {
  it("mails the visitor once: reference, visit, address, what happens next, the manage link; a rerun mails nothing", async () => {
    const b = await book();
    const [job] = await waiting(b.id);
    const due = reminderDueAt(b.serviceDate, MORNING);
    const at = new Date(due.getTime() + 2_000);
    expect(await sendReminder(conn.db, job!.data, at)).toBe("sent");

    const mails = await reminderMails(b.id);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.to).toBe(b.email);
    expect(mail!.kind).toBe("receipt");
    expect(mail!.subject).toBe(
      `Reminder: your service visit on ${visitDay(b.serviceDate)}, Morning (8 AM to 11 AM) — Dover Doors & Windows`,
    );
    const manageUrl = `${SITE}/booking/${b.token}`;
    expect(mail!.text).toContain(manageUrl);
    expect(mail!.text).toContain(b.reference);
    expect(mail!.text).toContain(MORNING);
    expect(mail!.text).toContain("12 Elm St, Flint, MI 48503");
    expect(mail!.text).toContain("Our technician arrives within that window and calls ahead when on the way.");
    // Two days ahead, a day before the 24-hour cut-off: until when the visit can be moved or cancelled online.
    expect(mail!.text).toContain(
      `Until 8 AM on ${visitDay(addDays(b.serviceDate, -1)).replace(/, \d{4}$/, "")} you can move the visit or cancel it for a full refund from your booking's page`,
    );
    expect(mail!.text).not.toContain("Online changes to this visit have closed");
    expect(mail!.text).toContain("(810) 555-0100");
    // No internal ids: the booking is named by its reference.
    expect(mail!.text).not.toMatch(/#\d/);
    expect(await reminderEvents(b.id)).toEqual([{ note: "Reminder e-mailed.", to_date: b.serviceDate }]);

    // The job run again (a retry after its completion was lost): nothing more.
    expect(await sendReminder(conn.db, job!.data, new Date(at.getTime() + 60_000))).toBe("already sent");
    expect(await reminderMails(b.id)).toHaveLength(1);
    expect(await reminderEvents(b.id)).toHaveLength(1);
  });

  it("mails nothing once the window has started (a job held up past it), or for a link that does not open the booking", async () => {
    const b = await book();
    const [job] = await waiting(b.id);
    expect(await sendReminder(conn.db, job!.data, windowStart(b.serviceDate, MORNING))).toBe("started");
    const due = reminderDueAt(b.serviceDate, MORNING);
    const other = await book();
    const [otherJob] = await waiting(other.id);
    // Another booking's encrypted token copied into this job does not open here.
    expect(await sendReminder(conn.db, { ...job!.data, token: otherJob!.data.token }, due)).toBe("link unusable");
    expect(await reminderMails(b.id)).toHaveLength(0);
  });

  it("the worker runs a due job through pg-boss: mailed, the job completed", async () => {
    const b = await book();
    const [job] = await waiting(b.id);
    // Due now (instead of tomorrow-ish): the worker picks it up at its next poll.
    await rows(conn.db, `update pgboss.job set start_after = now() - interval '1 second' where id = '${job!.id}'`);
    const stateOf = async () =>
      (await rows<{ state: string }>(conn.db, `select state::text as state from pgboss.job where id = '${job!.id}'`))[0]
        ?.state;
    const worker = await startReminderWorker({ conn, pollMs: 500 });
    try {
      const deadline = Date.now() + 20_000;
      while ((await stateOf()) !== "completed" && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await worker.stop();
    }
    expect(await stateOf()).toBe("completed");
    const mails = await reminderMails(b.id);
    expect(mails).toHaveLength(1);
    // Weeks ahead of the visit, so the mail offers online changes until the cut-off.
    expect(mails[0]!.subject).toMatch(/^Reminder: your service visit on Tuesday, /);
    expect(mails[0]!.text).toMatch(
      /Until 8 AM on Monday, \w+ \d+ you can move the visit or cancel it for a full refund/,
    );
  });
});
