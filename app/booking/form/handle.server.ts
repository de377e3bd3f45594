import { serviceRequests } from "@db/schema";
import { insertBooking } from "~/booking/book.server";
import { changeDeadline } from "~/booking/cutoff";
import { addressLine } from "~/booking/facts.server";
import { bookingInvite } from "~/booking/invitation.server";
import { onlineChangesSentence } from "~/booking/online-changes.server";
import { changePolicy, WHAT_HAPPENS_NEXT } from "~/booking/policy";
import { managePath } from "~/booking/reference.server";
import { env } from "~/lib/env.server";
import { getTableName } from "drizzle-orm";
import { bookingReceipt, type BookedVisitFacts } from "~/mail/booking-receipt.server";
import { chargeRows } from "~/mail/charge-rows";
import { cardLabel, staffCardLabel } from "~/payments/words";
import type { PaymentOutcome } from "~/payments/payments.server";
import type { Tx } from "@db/client.server";
import { formatUsd } from "~/payments/money";
import { linkPayment } from "~/payments/payments.server";
import { bookingRecord } from "~/payments/record";
import { servicePrice } from "~/booking/service-price";
import { CARD_FIELD_NAMES } from "~/forms/card-names";
import { cardInput } from "~/forms/card-schema";
import { FormFailure, type FormDefinition, type SubmissionContext } from "~/forms/pipeline";
import { summaryRows } from "~/mail/summary";
import { serviceRequestRow } from "~/forms/service/handle.server";
import { confirmPlace, holdPlace, releasePlace } from "../availability.server";
import {
  PREVIEW_FIELD,
  PREVIEW_VALUE,
  RESIDENTIAL_PENDING,
  RESIDENTIAL_SUCCESS,
  residentialServiceIdentity,
} from "./identity";
import { serviceReceiptLine, serviceReceiptPath, visitDay } from "./receipt.server";
import { previewServiceArea, serviceAreaErrors } from "../service-area.server";
import { previewVisit, residentialLabels, residentialServiceSchema, type ResidentialServiceInput } from "./schema";

/** The price the server charges (SPEC §9 through the one price module); the posted `total` is never read. */
function priceOf(value: ResidentialServiceInput) {
  return servicePrice({ serviceDate: value.serviceDate, serviceTime: value.serviceTime });
}

/**
 * Residential service (/request-service?type=residential and
 * /api/store/request-service/residential), paid by card at booking. The
 * pipeline runs the paid steps in order: `reserve` refuses a ZIP outside the
 * service area, then holds a place in the slot (or refuses: full, begun,
 * past), the card is charged once per form render
 * outside any transaction (a declined card gives the place back), and
 * `handle` writes the booking in the same transaction as its e-mails,
 * turning the hold into the booking.
 */
export const residentialServiceForm: FormDefinition<typeof residentialServiceSchema> = {
  ...residentialServiceIdentity,
  noun: "residential service booking",
  schema: residentialServiceSchema,
  successMessage: RESIDENTIAL_SUCCESS,
  // "Show price" answers the ZIP and the day (a past one, or today once every window has begun) beside their fields.
  preview: {
    field: PREVIEW_FIELD,
    value: PREVIEW_VALUE,
    check: async (fields) => ({ ...(await previewServiceArea(fields)), ...previewVisit(fields) }),
  },
  payment: {
    purpose: "service",
    async reserve(db, value, key) {
      // Outside every 50-mile circle (or no such ZIP): refused before anything is held or charged.
      const area = await serviceAreaErrors(value.zip);
      if (area.zip) return new FormFailure(area.zip[0]!, area, 400, { cardless: true });
      const price = priceOf(value);
      if (!price.ok) return new FormFailure(price.message, { [price.field]: [price.message] });
      return (await holdPlace(db, key, value.serviceDate, value.serviceTime)) ?? { hold: undefined };
    },
    release: releasePlace,
    amountCents(value) {
      const price = priceOf(value);
      if (!price.ok) throw new RangeError("service price refused after the reservation accepted it");
      return price.cents;
    },
    card: cardInput,
    description: (value) => `Residential service ${value.serviceDate} ${value.serviceTime}`,
    priced: (value) => ({ serviceDate: value.serviceDate, serviceTime: value.serviceTime }),
    details: (value, clientIp) => ({
      customer: { email: value.email, ip: clientIp ?? undefined },
      billing: {
        address: value.address1,
        city: value.city,
        state: value.state,
        zip: value.zip,
        country: value.country,
      },
    }),
    receiptPath: serviceReceiptPath,
  },
  async handle(tx, value, ctx) {
    const payment = ctx.payment;
    if (!payment || !ctx.paymentKey) throw new Error("a residential booking reached its handler without a charge");
    await confirmPlace(tx, ctx.paymentKey, value.serviceDate, value.serviceTime);
    const row = await storeBooking(tx, value, ctx, payment);
    const submission = { table: getTableName(serviceRequests), id: row.id };
    await linkPayment(tx, payment.paymentId, bookingRecord(row.id));
    const visit = bookedVisit(value, row, payment);
    return {
      submission,
      // The company's copy: everything sent, the charge as staff find it in the processor's dashboard.
      summary: [
        ...summaryRows(residentialLabels, value, [...CARD_FIELD_NAMES, "total", "client_ip"]),
        ...chargeRows({
          amount: visit.amount,
          staffCard: staffCardLabel(payment.brand, payment.last4),
          paid: visit.paid,
          paymentId: payment.paymentId,
        }),
      ],
      name: value.name,
      email: value.email,
      message: visit.paid
        ? `${RESIDENTIAL_SUCCESS} ${receiptLine(value, payment)} Booking reference: ${row.reference}.`
        : RESIDENTIAL_PENDING,
      receipt: bookingReceipt(visit),
      calendar: bookingInvite(
        {
          id: row.id,
          reference: row.reference,
          serviceDate: value.serviceDate,
          serviceTime: value.serviceTime,
          address: visit.address,
          manageUrl: visit.manageUrl,
        },
        { cutoffHours: env().BOOKING_CHANGE_CUTOFF_HOURS },
      ),
      // HTML posts go to the booking's own page (redirect-after-post: a refresh does not book or pay again).
      redirectTo: ctx.api ? undefined : `${managePath(row.token)}?booked`,
    };
  },
};

/** The booking's row, with its first history line; what was paid is the ledger's to say (the booking's page lists it). */
function storeBooking(tx: Tx, value: ResidentialServiceInput, ctx: SubmissionContext, payment: PaymentOutcome) {
  return insertBooking(
    tx,
    {
      ...serviceRequestRow("residential", value, ctx),
      totalCents: payment.amountCents,
      paymentStatus: payment.status === "approved" ? "paid" : "pending",
      paymentId: payment.paymentId,
      paymentTransactionId: payment.transactionId ?? null,
      cardBrand: payment.brand ?? null,
      cardLast4: payment.last4 ?? null,
    },
    `Booked for ${visitDay(value.serviceDate)}, ${value.serviceTime}.`,
  );
}

/** What the receipt is composed from (app/mail/booking-receipt.server.ts): the visit, the charge and the booking's words. */
function bookedVisit(
  value: ResidentialServiceInput,
  row: { reference: string; token: string },
  payment: PaymentOutcome,
): BookedVisitFacts {
  const cutoffHours = env().BOOKING_CHANGE_CUTOFF_HOURS;
  const deadline = changeDeadline(value.serviceDate, value.serviceTime, cutoffHours);
  const day = visitDay(value.serviceDate);
  return {
    name: value.name,
    reference: row.reference,
    day,
    window: value.serviceTime,
    address: addressLine(value),
    amount: formatUsd(payment.amountCents),
    card: cardLabel(payment.brand, payment.last4),
    paid: payment.status === "approved",
    deadline,
    words: {
      changeWindow: onlineChangesSentence(deadline, cutoffHours),
      next: WHAT_HAPPENS_NEXT,
      changing: changePolicy(cutoffHours),
    },
    manageUrl: `${env().SITE_URL}${managePath(row.token)}`,
    // What they typed, for their records: never the card (its brand and last four are above), nor what the server ignores.
    details: summaryRows(residentialLabels, value, [...CARD_FIELD_NAMES, "cardHolder", "total", "client_ip"]).map(
      (r) => (r.label === residentialLabels.serviceDate ? { ...r, value: day } : r),
    ),
  };
}

/** The answer's sentence of what was charged for which visit. */
function receiptLine(value: ResidentialServiceInput, payment: PaymentOutcome): string {
  return serviceReceiptLine({
    amount: formatUsd(payment.amountCents),
    brand: payment.brand ?? null,
    last4: payment.last4 ?? null,
    serviceDate: value.serviceDate,
    serviceTime: value.serviceTime,
  });
}
