import { invoicePayments } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { invoiceReceiptSubject } from "~/mail/subjects";
import { formatUsd } from "~/payments/money";
import { linkPayment } from "~/payments/payments.server";
import { CARD_FIELD_NAMES } from "../card-names";
import { cardInput } from "../card-schema";
import { type FormDefinition } from "../pipeline";
import { summaryRows } from "~/mail/summary";
import { INVOICE_PENDING, INVOICE_SUCCESS, invoiceIdentity } from "./identity";

export { INVOICE_PENDING, INVOICE_SUCCESS };
import { invoiceReceiptPath, receiptLine } from "./receipt.server";
import { invoiceAmountCents, invoiceLabels, invoiceSchema } from "./schema";

/**
 * Pay Invoice (/pay-invoice, /api/store/pay-invoice/submit). The amount is the
 * server's reading of invoice_payment_amount (a posted `total` is ignored);
 * the pipeline charges it once per form render before `handle` runs, so
 * `handle` only records what the processor answered.
 */
export const invoiceForm: FormDefinition<typeof invoiceSchema> = {
  ...invoiceIdentity,
  noun: "invoice payment",
  schema: invoiceSchema,
  successMessage: INVOICE_SUCCESS,
  payment: {
    purpose: "invoice",
    amountCents(value) {
      const cents = invoiceAmountCents(value.invoice_payment_amount);
      if (cents === null) throw new RangeError("invoice amount passed the schema but is not one"); // the schema refuses it first
      return cents;
    },
    card: cardInput,
    description: (value) => `Invoice ${value.invoice_number}`,
    details: (value, clientIp) => ({
      customer: { email: value.email, ip: clientIp ?? undefined },
      billing: { address: value.address, city: value.city, state: value.state, zip: value.zip, country: "US" },
      invoiceNumber: value.invoice_number,
    }),
    receiptPath: invoiceReceiptPath,
  },
  async handle(tx, value, ctx) {
    const payment = ctx.payment;
    if (!payment) throw new Error("an invoice payment reached its handler without a charge");
    const status = payment.status === "approved" ? "paid" : "pending";
    const [row] = await tx
      .insert(invoicePayments)
      .values({
        status,
        paymentId: payment.paymentId,
        invoiceNumber: value.invoice_number,
        amountCents: payment.amountCents,
        name: value.name,
        email: value.email,
        address: value.address,
        address2: value.address_2,
        city: value.city,
        state: value.state,
        zip: value.zip,
        cardHolder: value.cardHolder,
        clientIp: ctx.clientIp,
      })
      .returning({ id: invoicePayments.id });
    const submission = { table: getTableName(invoicePayments), id: row!.id };
    await linkPayment(tx, payment.paymentId, submission);

    const amount = formatUsd(payment.amountCents);
    const line = receiptLine({
      amount,
      brand: payment.brand ?? null,
      last4: payment.last4 ?? null,
      invoiceNumber: value.invoice_number,
    });
    const paymentRows = [
      { label: "Amount", value: amount },
      { label: "Card", value: payment.brand && payment.last4 ? `${payment.brand} ending in ${payment.last4}` : "—" },
      {
        label: "Payment",
        value:
          status === "paid"
            ? `Approved (payment #${payment.paymentId})`
            : `Being confirmed (payment #${payment.paymentId})`,
      },
    ];
    const summary = [
      ...summaryRows(invoiceLabels, value, [...CARD_FIELD_NAMES, "invoice_payment_amount"]),
      ...paymentRows,
    ];
    return {
      submission,
      summary,
      name: value.name,
      email: value.email,
      message: status === "paid" ? `${INVOICE_SUCCESS} ${line}` : INVOICE_PENDING,
      receipt:
        status === "paid"
          ? {
              subject: invoiceReceiptSubject(value.invoice_number, true),
              title: "Payment receipt",
              intro: `Thank you, ${value.name}. ${line}`,
            }
          : {
              subject: invoiceReceiptSubject(value.invoice_number, false),
              title: "Payment being confirmed",
              intro: `Hello ${value.name}. ${INVOICE_PENDING}`,
            },
      // HTML posts go to the receipt page (redirect-after-post: a refresh does not post again).
      redirectTo: ctx.api ? undefined : invoiceReceiptPath(payment.paymentId),
    };
  },
};
