import type { DbOrTx } from "@db/client.server";
import { company } from "~/content/company";
import { env } from "~/lib/env.server";
import { calendarCancelAttachment, type CalendarInvite } from "./calendar.server";
import { enqueueMail, wakeMailWorker } from "./outbox.server";
import { plainText, type MailRow } from "./render.server";
import { visitorFooter } from "./subjects";

/**
 * The mails of a change to a booking after it was paid (issue 29): to the visitor (with the
 * calendar's update) and to the company, which is told what changed. Composed here, sent by the
 * outbox like every other mail.
 */
export type BookingMailFacts = {
  id: number;
  reference: string;
  name: string;
  email: string;
  visit: string;
  rows: MailRow[];
  invite: CalendarInvite;
  /** The invitation's new SEQUENCE (one higher than the last one sent). */
  sequence: number;
};

export async function mailCancellation(tx: DbOrTx, b: BookingMailFacts, money: string): Promise<void> {
  const e = env();
  const visitor = {
    title: "Service visit cancelled",
    intro: `Hello ${b.name}. Your service visit on ${b.visit} (booking reference ${b.reference}) is cancelled. ${money} If you need us another time, book again on our website or call ${company.phone.display}.`,
    rows: b.rows,
    footer: visitorFooter(e.COMPANY_INBOX),
  };
  const staff = {
    title: `Booking ${b.reference} cancelled by the visitor`,
    intro: `${b.name} cancelled the service visit on ${b.visit} from the booking's page. ${money} The place in the slot is free again.`,
    rows: b.rows,
  };
  await enqueueMail(
    tx,
    {
      to: b.email,
      replyTo: e.COMPANY_INBOX,
      subject: `Your service visit on ${b.visit} is cancelled — ${company.name}`,
      text: plainText(visitor),
      content: visitor,
      kind: "receipt",
      source: { table: "service_requests", id: b.id },
      attachments: [calendarCancelAttachment(b.invite, { name: b.name, email: b.email }, b.sequence)],
    },
    {
      to: e.COMPANY_INBOX,
      replyTo: b.email,
      subject: `Booking ${b.reference} cancelled: ${b.visit}`,
      text: plainText(staff),
      content: staff,
      source: { table: "service_requests", id: b.id },
    },
  );
  wakeMailWorker();
}

/** The refund was refused or not answered: the company must act; the visitor is not told it was refunded. */
export async function mailCancellationPending(tx: DbOrTx, b: BookingMailFacts, why: string): Promise<void> {
  const staff = {
    title: `Action needed: refund for booking ${b.reference}`,
    intro: `${b.name} cancelled the service visit on ${b.visit}, but the card processor did not confirm the refund (${why}). The booking is "cancellation pending" and its place is still held: refund it in the processor's dashboard, then set the booking to cancelled in Studio.`,
    rows: b.rows,
  };
  await enqueueMail(tx, {
    to: env().COMPANY_INBOX,
    replyTo: b.email,
    subject: `Action needed: refund for booking ${b.reference}`,
    text: plainText(staff),
    content: staff,
    source: { table: "service_requests", id: b.id },
  });
  wakeMailWorker();
}
