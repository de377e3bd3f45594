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
import { company } from "~/lib/company";
import { onlineChangesLine } from "~/mail/booking-mail.server";
import { serviceVisitReceiptSubject } from "~/mail/subjects";
import { formatUsd } from "~/payments/money";
import { linkPayment } from "~/payments/payments.server";
import { servicePrice } from "~/booking/service-price";
import { CARD_FIELD_NAMES } from "~/forms/card-names";
import { cardInput } from "~/forms/card-schema";
import { FormFailure, type FormDefinition } from "~/forms/pipeline";
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
    check: (fields) => ({ ...previewServiceArea(fields), ...previewVisit(fields) }),
  },
  payment: {
    purpose: "service",
    async reserve(db, value, key) {
      // Outside every 50-mile circle (or no such ZIP): refused before anything is held or charged.
      const area = serviceAreaErrors(value.zip);
      if (area.zip) return new FormFailure(area.zip[0]!, area);
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
    const paid = payment.status === "approved";
    const amount = formatUsd(payment.amountCents);
    const card = payment.brand && payment.last4 ? `${payment.brand} ending in ${payment.last4}` : "your card";
    const row = await insertBooking(
      tx,
      {
        ...serviceRequestRow("residential", value, ctx),
        totalCents: payment.amountCents,
        paymentStatus: paid ? "paid" : "pending",
        paymentId: payment.paymentId,
        paymentTransactionId: payment.transactionId ?? null,
        cardBrand: payment.brand ?? null,
        cardLast4: payment.last4 ?? null,
      },
      // What was paid is the ledger's to say (the booking's page lists it): the history says what happened to the visit.
      `Booked for ${visitDay(value.serviceDate)}, ${value.serviceTime}.`,
    );
    const submission = { table: getTableName(serviceRequests), id: row.id };
    await linkPayment(tx, payment.paymentId, submission);
    const cutoffHours = env().BOOKING_CHANGE_CUTOFF_HOURS;
    const manage = {
      label: paid ? "See, change or cancel your booking" : "See your booking",
      url: `${env().SITE_URL}${managePath(row.token)}`,
    };
    const day = visitDay(value.serviceDate);
    const where = addressLine(value);

    // What the visitor looks for first: which visit, where, what was paid and with which card.
    const facts = [
      { label: "Booking reference", value: row.reference },
      { label: "Day", value: day },
      { label: "Arrival window", value: value.serviceTime },
      { label: "Address", value: where },
      paid
        ? { label: "Paid", value: `${amount} charged to ${card}` }
        : {
            label: "Payment",
            value: `${amount} on ${card}, being confirmed with the card processor`,
          },
    ];
    // What they typed, for their records: never the card (its brand and last four are above), nor what the server ignores.
    const details = summaryRows(residentialLabels, value, [
      ...CARD_FIELD_NAMES,
      "cardHolder",
      "total",
      "client_ip",
    ]).map((r) => (r.label === residentialLabels.serviceDate ? { ...r, value: day } : r));
    // The company's copy: everything sent, the charge as staff find it in the processor's dashboard.
    const summary = [
      ...summaryRows(residentialLabels, value, [...CARD_FIELD_NAMES, "total", "client_ip"]),
      { label: "Amount", value: amount },
      { label: "Card", value: payment.brand && payment.last4 ? card : "—" },
      {
        label: "Payment",
        value: paid ? `Approved (payment #${payment.paymentId})` : `Being confirmed (payment #${payment.paymentId})`,
      },
    ];
    const deadline = changeDeadline(value.serviceDate, value.serviceTime, cutoffHours);
    const staffFacts = [
      { label: "Booking reference", value: row.reference },
      { label: "State", value: paid ? "Booked" : "Booked, payment being confirmed" },
      { label: "Visit", value: `${day}, ${value.serviceTime}` },
      { label: "Online changes", value: onlineChangesLine(deadline, { pending: !paid }) },
    ];
    const line = serviceReceiptLine({
      amount,
      brand: payment.brand ?? null,
      last4: payment.last4 ?? null,
      serviceDate: value.serviceDate,
      serviceTime: value.serviceTime,
    });
    return {
      submission,
      summary,
      name: value.name,
      email: value.email,
      message: paid ? `${RESIDENTIAL_SUCCESS} ${line} Booking reference: ${row.reference}.` : RESIDENTIAL_PENDING,
      receipt: paid
        ? {
            subject: serviceVisitReceiptSubject(day, true),
            title: "Your service visit is booked",
            intro: `Thank you, ${value.name}. Your garage door service visit is booked and paid; keep this e-mail for your records.`,
            facts,
            sections: [
              { heading: "What happens next", paragraphs: [WHAT_HAPPENS_NEXT] },
              {
                heading: "Changing or cancelling",
                // Until when, for this visit (or that it is inside the cut-off already), then the rules.
                paragraphs: [onlineChangesSentence(deadline, cutoffHours), changePolicy(cutoffHours)],
              },
            ],
            action: manage,
            rows: details,
            staffFacts,
          }
        : {
            subject: serviceVisitReceiptSubject(day, false),
            title: "Your visit is booked; the payment is being confirmed",
            intro: `Hello ${value.name}. Your visit is booked, and the card processor is still confirming your payment. Please do not pay again.`,
            facts,
            sections: [
              {
                heading: "What happens next",
                paragraphs: ["We will e-mail or call you as soon as the payment is confirmed.", WHAT_HAPPENS_NEXT],
              },
              {
                heading: "Changing or cancelling",
                paragraphs: [
                  `While the payment is being confirmed, the booking's page shows your visit but cannot change it yet: call us at ${company.phone.display} with your booking reference.`,
                  changePolicy(cutoffHours),
                ],
              },
            ],
            action: manage,
            rows: details,
            staffFacts,
          },
      calendar: bookingInvite({
        id: row.id,
        reference: row.reference,
        serviceDate: value.serviceDate,
        serviceTime: value.serviceTime,
        address: where,
        manageUrl: manage.url,
      }),
      // HTML posts go to the booking's own page (redirect-after-post: a refresh does not book or pay again).
      redirectTo: ctx.api ? undefined : `${managePath(row.token)}?booked`,
    };
  },
};
