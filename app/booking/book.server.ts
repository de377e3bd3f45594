import type { DbOrTx } from "@db/client.server";
import { bookingEvents, serviceRequests } from "@db/schema";
import { newBookingReference, newManageToken } from "./reference.server";
import { scheduleReminder } from "./reminders.server";

type BookingRow = Omit<typeof serviceRequests.$inferInsert, "reference" | "manageTokenHash" | "bookingStatus">;

/**
 * Writes a residential booking with its reference and its manage link's token (the token's hash
 * only; the token goes back to the caller for the receipt and the mails, then nowhere), its first
 * history line, and the job of its reminder e-mail (due REMINDER_LEAD_HOURS before the window,
 * none for a visit less than that ahead: reminders.server.ts). A reference already taken (one chance in a few
 * thousand at ten thousand bookings) is drawn again, inside the same transaction.
 */
export async function insertBooking(
  tx: DbOrTx,
  row: BookingRow,
  note: string,
): Promise<{ id: number; reference: string; token: string }> {
  const { token, hash } = newManageToken();
  for (let draw = 0; draw < 8; draw++) {
    const reference = newBookingReference();
    const [inserted] = await tx
      .insert(serviceRequests)
      .values({ ...row, reference, manageTokenHash: hash, bookingStatus: "booked" })
      .onConflictDoNothing({ target: serviceRequests.reference })
      .returning({ id: serviceRequests.id });
    if (!inserted) continue;
    await tx.insert(bookingEvents).values({
      serviceRequestId: inserted.id,
      kind: "booked",
      toDate: row.serviceDate,
      toTime: row.serviceTime,
      amountCents: row.totalCents ?? null,
      paymentId: row.paymentId ?? null,
      note,
    });
    await scheduleReminder(tx, { id: inserted.id, serviceDate: row.serviceDate, serviceTime: row.serviceTime }, token);
    return { id: inserted.id, reference, token };
  }
  throw new Error("no free booking reference after 8 draws");
}
