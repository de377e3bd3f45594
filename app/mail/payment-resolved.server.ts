import type { DbOrTx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { enqueueMail, wakeMailWorker } from "./outbox.server";
import { receiptSubject, visitorFooter } from "./subjects";

/**
 * A payment that was pending when the visitor left (its answer was unknown) has resolved: the
 * visitor is told, as the page and the receipt promised, in the ledger's words. Written in the
 * transaction that confirms or releases the record, so it is sent once.
 */
export type PaymentResolved = {
  to: string;
  name: string;
  /** "booking DR-7K3M-Q9", "order DO-…", "invoice 10442". */
  what: string;
  outcome: "confirmed" | "released";
  /** The ledger's sentence of what moved ("$129.95 charged to Visa ending in 4242."). */
  money: string;
  /** What happens now, or what to do. */
  next: string;
  source: { table: string; id: number };
};

export const RESOLVED_SUBJECTS = {
  confirmed: (what: string) => receiptSubject(`Your payment for ${what} is confirmed`),
  released: (what: string) => receiptSubject(`Your payment for ${what} did not go through: nothing was charged`),
} as const;

export async function mailPaymentResolved(tx: DbOrTx, p: PaymentResolved): Promise<void> {
  const inbox = env().COMPANY_INBOX;
  const said =
    p.outcome === "confirmed"
      ? `The card processor has confirmed your payment for ${p.what}.`
      : `The card processor has no payment for ${p.what}, so nothing was charged.`;
  await enqueueMail(tx, {
    to: p.to,
    replyTo: inbox,
    subject: RESOLVED_SUBJECTS[p.outcome](p.what),
    text: [`Hello ${p.name}.`, "", said, p.money, "", p.next, "", visitorFooter(inbox)].join("\n"),
    kind: "receipt",
    source: p.source,
  });
  wakeMailWorker();
}
