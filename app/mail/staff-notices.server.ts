import type { DbOrTx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { formatUsd } from "~/payments/money";
import type { SettledCharge } from "~/payments/reconcile.server";
import { enqueueMail, wakeMailWorker } from "./outbox.server";
import { withArticle } from "./subjects";

/**
 * Mails to the company about money the site settled on its own (issue 28): an approved charge
 * whose booking, invoice or order was never stored, voided or refunded by the reconciliation,
 * or left for staff when the processor refused both.
 */
export async function mailSettledCharges(db: DbOrTx, settled: readonly SettledCharge[]): Promise<void> {
  if (settled.length === 0) return;
  await enqueueMail(db, ...settled.map(settledChargeMail));
  wakeMailWorker();
}

const PURPOSE_NOUNS: Record<string, string> = {
  order: "shop order",
  service: "service booking",
  invoice: "invoice payment",
};

function settledChargeMail(charge: SettledCharge) {
  const amount = formatUsd(charge.amountCents);
  const card = charge.brand && charge.last4 ? `${charge.brand} ending in ${charge.last4}` : "the card";
  const what =
    charge.status === "approved"
      ? `could NOT be voided or refunded by the processor: refund ${amount} to ${card} by hand`
      : `was ${charge.status}: ${amount} goes back to ${card}`;
  const text = [
    `An approved card payment (${charge.purpose}) was never stored as ${withArticle(PURPOSE_NOUNS[charge.purpose] ?? "submission")}, so it ${what}.`,
    "",
    `Payment: #${charge.paymentId}`,
    `Amount: ${amount}`,
    `Card: ${card}`,
    `Processor transaction: ${charge.transactionId ?? "—"}`,
    `Charged at: ${charge.createdAt.toISOString()}`,
    "",
    "The visitor may have been told the request could not be saved; they may call or send the form again.",
  ].join("\n");
  return {
    to: env().COMPANY_INBOX,
    subject:
      charge.status === "approved"
        ? `Action needed: refund payment #${charge.paymentId} (${amount})`
        : `Payment #${charge.paymentId} ${charge.status} (${amount}): its submission was never stored`,
    text,
    kind: "company" as const,
    source: { table: "payments", id: charge.paymentId },
  };
}
