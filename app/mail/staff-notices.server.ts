import type { DbOrTx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { formatUsd } from "~/payments/money";
import type { Mismatch } from "~/payments/audit.server";
import type { ReconcileEvent } from "~/payments/reconcile.server";
import { cardLabel } from "~/payments/words";
import { enqueueMail, wakeMailWorker } from "./outbox.server";
import { withArticle } from "./subjects";

/**
 * Mails to the company about money the site settled on its own (issue 28, issue 36): what the
 * reconciler did with a ledger row nobody finished — money taken for nothing given back, a pending
 * booking, order or invoice confirmed or released, money that went back after its change's mails,
 * or a give-back the processor keeps refusing. One mail per event, written in the transaction
 * that settles it, so it is sent once.
 */
export async function mailReconcileEvent(db: DbOrTx, event: ReconcileEvent): Promise<void> {
  await enqueueMail(db, eventMail(event));
  wakeMailWorker();
}

const PURPOSE_NOUNS: Record<string, string> = {
  order: "shop order",
  service: "service booking",
  invoice: "invoice payment",
};

function eventMail(event: ReconcileEvent) {
  const row = event.row;
  const amount = formatUsd(row.amountCents);
  const card = cardLabel(row.brand, row.last4);
  const noun = withArticle(PURPOSE_NOUNS[row.purpose] ?? "submission");
  const { subject, what } = describe(event, amount, card, noun);
  const text = [
    what,
    "",
    `Ledger row: #${row.id} (${row.kind}${row.parentId ? ` of #${row.parentId}` : ""})`,
    `Amount: ${amount}`,
    `Card: ${card}`,
    `Processor transaction: ${row.processorTransactionId ?? "—"}`,
    `For: ${row.referenceTable ? `${row.referenceTable} ${row.referenceId}` : "nothing stored"}`,
    `Requested at: ${row.createdAt.toISOString()}`,
  ].join("\n");
  return {
    to: env().COMPANY_INBOX,
    subject,
    text,
    kind: "company" as const,
    source: { table: "payments", id: row.id },
  };
}

function describe(event: ReconcileEvent, amount: string, card: string, noun: string) {
  const id = event.row.id;
  switch (event.kind) {
    case "undone":
      return event.outcome === "refused"
        ? {
            subject: `Action needed: refund payment #${id} (${amount})`,
            what: `${amount} was charged to ${card} for ${noun} that was never stored, and the processor refused to give it back: refund ${amount} to ${card} by hand.`,
          }
        : {
            subject: `Payment #${id} ${event.outcome === "voided" ? "voided" : event.outcome === "refunded" ? "refunded" : "being given back"} (${amount}): ${event.row.intent === "move" ? "the move it paid for" : `its ${PURPOSE_NOUNS[event.row.purpose] ?? "submission"}`} was never stored`,
            what:
              event.outcome === "voided"
                ? `${amount} was charged to ${card} for ${noun} that was never stored: the ${amount} charge was cancelled before it was taken (no money left the card).`
                : event.outcome === "refunded"
                  ? `${amount} was charged to ${card} for ${noun} that was never stored: ${amount} refunded to ${card}.`
                  : `${amount} was charged to ${card} for ${noun} that was never stored: ${amount} is on its way back (the processor has not confirmed it yet).`,
          };
    case "confirmed":
      return {
        subject: `Payment #${id} confirmed (${amount}): the pending ${PURPOSE_NOUNS[event.row.purpose] ?? "submission"} is paid`,
        what: `The card processor confirmed ${amount} charged to ${card}, whose answer had been unknown: ${noun} stored as pending is now paid.`,
      };
    case "released":
      return {
        subject: `Payment #${id} not taken (${amount}): the pending ${PURPOSE_NOUNS[event.row.purpose] ?? "submission"} is released`,
        what: `The card processor has no charge of ${amount} to ${card} (declined, or never received): ${noun} stored as pending is released. Contact the visitor.`,
      };
    case "gave-back":
      return {
        subject: `Payment #${event.row.parentId ?? id}: ${amount} ${event.row.kind === "void" ? "voided" : "refunded"}`,
        what: `${event.row.kind === "void" ? `The ${amount} charge was cancelled before it was taken (no money left ${card})` : `${amount} refunded to ${card}`}, for ${noun}, confirmed by the reconciliation.`,
      };
    case "not-taken":
      return {
        subject: `Payment #${id} interrupted (${amount}): nothing was charged`,
        what: `A payment of ${amount} with ${card} for ${noun} was interrupted before the card processor answered (the site stopped). The processor has no such charge: nothing was charged and nothing was stored. The visitor may call or send the form again.`,
      };
    case "stuck":
      return {
        subject: `Action needed: ${amount} could not be given back (payment #${event.row.parentId ?? id})`,
        what: `The card processor refused to give ${amount} back to ${card} for ${noun}, several times. Refund it by hand in the processor's dashboard.`,
      };
  }
}

/** The daily payments audit's findings, to the company; nothing when there are none. */
export async function mailAuditMismatches(db: DbOrTx, found: readonly Mismatch[]): Promise<void> {
  // Each mismatch once, however many checks saw it.
  const mismatches = [...new Map(found.map((m) => [`${m.where}: ${m.problem}`, m])).values()];
  if (mismatches.length === 0) return;
  const text = [
    `The daily payments audit found ${mismatches.length} ${mismatches.length === 1 ? "mismatch" : "mismatches"} between the ledger, the card processor and the bookings, orders and invoices:`,
    "",
    ...mismatches.map((m) => `- ${m.where}: ${m.problem}${m.since ? ` (${ageOf(m.since)})` : ""}`),
    "",
    "Run `npm run payments:audit` to see them again after settling them.",
  ].join("\n");
  await enqueueMail(db, {
    to: env().COMPANY_INBOX,
    subject: `Action needed: the payments audit found ${mismatches.length} ${mismatches.length === 1 ? "mismatch" : "mismatches"}`,
    text,
    kind: "company" as const,
    source: { table: "payments", id: 0 },
  });
  wakeMailWorker();
}

/** "3 days old", "5 hours old", "12 minutes old". */
export function ageOf(since: Date, now = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  const [n, unit] =
    minutes >= 2 * 1440
      ? [Math.floor(minutes / 1440), "day"]
      : minutes >= 120
        ? [Math.floor(minutes / 60), "hour"]
        : [minutes, "minute"];
  return `${n} ${unit}${n === 1 ? "" : "s"} old`;
}
