import { company } from "~/lib/company";
import { companyClock } from "~/lib/company-time";
import { isServiceTime } from "~/booking/service-price";
import { changeDeadline } from "./cutoff";

/**
 * What a visitor is told of their own booking's online changes (DECISIONS 31 and 37): until when
 * it can be moved or cancelled from its page, or, for a visit booked or looked at inside the
 * cut-off, that it no longer can. Said by the receipt mailed at booking (a booking made less than
 * REMINDER_LEAD_HOURS ahead gets no reminder: this is what it has instead) and by the booking's
 * page; the reminder says it in its own words (app/mail/reminder-mail.server.ts).
 */
export function onlineChangesSentence(deadline: Date, cutoffHours: number, now: Date = new Date()): string {
  return now.getTime() < deadline.getTime()
    ? `You can move or cancel this visit on your booking's page until ${companyClock(deadline)}.`
    : `Your visit starts within ${cutoffHours} hours, so it can no longer be moved or cancelled online: call us at ${company.phone.display} and we will do what we can.`;
}

/**
 * The sentence for a booking as its page shows it, or null where it says nothing: a cancelled
 * booking, and one whose payment is still being confirmed (the page says what to do instead).
 */
export function bookingChangesSentence(
  booking: { status: string; paid: boolean; serviceDate: string; serviceTime: string },
  cutoffHours: number,
  now: Date = new Date(),
): string | null {
  if ((booking.status !== "booked" && booking.status !== "rescheduled") || !booking.paid) return null;
  if (!isServiceTime(booking.serviceTime)) return null;
  return onlineChangesSentence(changeDeadline(booking.serviceDate, booking.serviceTime, cutoffHours), cutoffHours, now);
}
