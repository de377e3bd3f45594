import type { Tx } from "@db/client.server";
import { invoicePayments } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { chargeRows } from "~/mail/charge-rows";
import { invoiceReceipt } from "~/mail/invoice-receipt.server";
import { formatUsd } from "~/payments/money";
import { linkPayment } from "~/payments/payments.server";
import { invoiceRecord } from "~/payments/record";
import { CARD_FIELD_NAMES } from "../card-names";
import { cardInput } from "../card-schema";
import { type FormDefinition } from "../pipeline";
import { summaryRows } from "~/mail/summary";
import { INVOICE_PENDING, INVOICE_SUCCESS, invoiceIdentity } from "./identity";

export { INVOICE_PENDING, INVOICE_SUCCESS };
import {
  invoiceReceiptPath,
  newInvoicePaymentReference,
  paymentDay,
  receiptFacts,
  receiptLine,
  type InvoiceReceipt,
} from "./receipt.server";
import { invoiceAmountCents, invoiceLabels, invoiceSchema } from "./schema";
import { staffCardLabel } from "~/payments/words";

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
    priced: (value) => ({ invoice: value.invoice_number }), // the amount itself is in the digest
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
    const row = await insertInvoicePayment(tx, {
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
    });
    const submission = { table: getTableName(invoicePayments), id: row.id };
    await linkPayment(tx, payment.paymentId, invoiceRecord(row.id));

    const paid = status === "paid";
    const amount = formatUsd(payment.amountCents);
    const receipt = {
      status,
      reference: row.reference,
      date: paymentDay(row.createdAt),
      invoiceNumber: value.invoice_number,
      amount,
      brand: payment.brand ?? null,
      last4: payment.last4 ?? null,
    } satisfies InvoiceReceipt;
    const line = receiptLine(receipt);
    // The company's copy: everything sent, the charge as staff find it in the processor's dashboard.
    const summary = [
      ...summaryRows(invoiceLabels, value, [...CARD_FIELD_NAMES, "invoice_payment_amount"]),
      ...chargeRows({
        amount,
        staffCard: staffCardLabel(payment.brand, payment.last4),
        paid,
        paymentId: payment.paymentId,
      }),
    ];
    return {
      submission,
      summary,
      name: value.name,
      email: value.email,
      message: paid ? `${INVOICE_SUCCESS} ${line} Reference: ${row.reference}.` : INVOICE_PENDING,
      receipt: invoiceReceipt({
        name: value.name,
        reference: row.reference,
        invoiceNumber: value.invoice_number,
        amount,
        paid,
        line,
        pendingText: INVOICE_PENDING,
        // The visitor's mail leads with the reference, the date, the invoice and the amount; what they
        // typed follows, never the card (its brand and last four are in the facts).
        facts: receiptFacts(receipt),
        details: summaryRows(invoiceLabels, value, [...CARD_FIELD_NAMES, "cardHolder", "invoice_payment_amount"]),
      }),
      // HTML posts go to the receipt page (redirect-after-post: a refresh does not post again).
      redirectTo: ctx.api ? undefined : invoiceReceiptPath(payment.paymentId),
    };
  },
};

type InvoicePaymentRow = Omit<typeof invoicePayments.$inferInsert, "reference">;

/** The invoice payment's row with a reference of its own (one already taken, a rare draw, is drawn again in the same transaction). */
async function insertInvoicePayment(tx: Tx, row: InvoicePaymentRow) {
  for (let draw = 0; draw < 8; draw++) {
    const reference = newInvoicePaymentReference();
    const [inserted] = await tx
      .insert(invoicePayments)
      .values({ ...row, reference })
      .onConflictDoNothing({ target: invoicePayments.reference })
      .returning({ id: invoicePayments.id, createdAt: invoicePayments.createdAt });
    if (inserted) return { ...inserted, reference };
  }
  throw new Error("no free invoice payment reference after 8 draws");
}
