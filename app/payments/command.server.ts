import type { Database } from "@db/client.server";
import type { PaymentPurpose } from "@db/schema";
import { performGiveBacks } from "./give-back.server";
import type { CardInput, ChargeRequest, PaymentGateway } from "./gateway";
import { chargeOnce, findPayment, performCharge, PricedKeyError, type PaymentOutcome } from "./payments.server";
import { undoCharge, type ReconcileHooks } from "./reconcile.server";

/**
 * THE paid command: hold what is paid for, send its charge once (or the voids and refunds the
 * hold requested), give the hold back when nothing was taken, and undo money taken for something
 * that could not be stored. Each capability declares its command beside its code (a booking, its
 * move, the checkout, an invoice); app/forms only turns the outcome into an HTTP answer.
 */

/** A paid render's idempotency key: the form's id and its render's submission key. */
export const paymentKey = (form: string, key: string) => `${form}:${key}`;

/** What a hold committed to the ledger itself, under the lock of what is paid for (a move). */
export type HeldLedger = { chargeId: number; fresh: boolean } | { giveBacks: number[] };
export type Held<H> = { hold: H; ledger?: HeldLedger };

/** What the command may be given instead of the site's own (tests): the processor and the clock. */
export type PayOptions = { gateway?: PaymentGateway; now?: Date };

/**
 * A capability's paid command, computed on the server from its own validated value and what
 * `reserve` held (a posted total is never charged). `H` is the hold; `R` what a refused hold is.
 */
export type PaidCommand<V, H = unknown, R = never> = {
  purpose: PaymentPurpose;
  /** Positive integer cents. */
  amountCents(value: V, hold: H): number;
  card(value: V): CardInput;
  /** Shown to the company in the processor's dashboard. */
  description(value: V): string;
  /** Every field that sets the amount (day and window, cart lines, invoice): bound to the key. */
  priced(value: V, hold: H): Record<string, unknown>;
  /** Customer, billing address and invoice number passed on to the processor when known. */
  details?(value: V, clientIp: string | null): Pick<ChargeRequest, "customer" | "billing" | "invoiceNumber">;
  /**
   * Before the charge: hold what is paid for under `key`, or refuse (nothing is charged). It may
   * commit the ledger's request itself (a move): `ledger` then names the charge requested
   * (`fresh`: by this call; otherwise an earlier post's, whose outcome is this one's), or the
   * voids and refunds requested, which are sent instead of a charge.
   */
  reserve?(db: Database, value: V, key: string, request: Request, options: PayOptions): Promise<Held<H> | R>;
  /** A charge whose answer is unknown: kept as pending (default), or refused with this message. */
  refusePending?(value: V, hold: H): string;
  /** Nothing was taken, or what was taken could not be stored: give the hold back. */
  release?(db: Database, key: string): Promise<void>;
};

export type CommandOutcome<H, R> =
  /** Paid (approved or pending), nothing to pay, or the give-backs sent. */
  | { kind: "paid"; payment?: PaymentOutcome; paymentKey: string; hold?: H }
  /** The hold refused; nothing was sent. */
  | { kind: "refused"; refusal: R }
  /** The key charged before for other priced fields: never stored at that amount. */
  | { kind: "priced-key" }
  /** The answer is unknown and this command does not stand on an unknown charge. */
  | { kind: "pending-refused"; message: string }
  /** The processor refused, or had voided or refunded an earlier send of this key. */
  | { kind: "not-taken"; status: PaymentOutcome["status"]; message?: string };

const isHeld = <H>(value: unknown): value is Held<H> => typeof value === "object" && value !== null && "hold" in value;

export async function runPaidCommand<V, H, R>(
  db: Database,
  command: PaidCommand<V, H, R>,
  value: V,
  { key, request, clientIp, gateway, now }: { key: string; request: Request; clientIp: string | null } & PayOptions,
): Promise<CommandOutcome<H, R>> {
  try {
    const held = command.reserve ? await command.reserve(db, value, key, request, { gateway, now }) : undefined;
    if (command.reserve && !isHeld<H>(held)) return { kind: "refused", refusal: held as R };
    const hold = (held as Held<H> | undefined)?.hold;
    const ledger = (held as Held<H> | undefined)?.ledger;
    if (ledger && "giveBacks" in ledger) {
      await performGiveBacks(db, ledger.giveBacks, { gateway });
      return { kind: "paid", paymentKey: key, hold };
    }
    const amountCents = command.amountCents(value, hold as H);
    if (!ledger && amountCents === 0) return { kind: "paid", paymentKey: key, hold };
    const charge = {
      amountCents,
      card: command.card(value),
      description: command.description(value),
      idempotencyKey: key,
      priced: command.priced(value, hold as H),
      ...command.details?.(value, clientIp),
    };
    const payment = !ledger
      ? await chargeOnce(db, { purpose: command.purpose, ...charge }, { gateway })
      : ledger.fresh
        ? await performCharge(db, ledger.chargeId, charge, { gateway })
        : ((await findPayment(db, ledger.chargeId)) ?? (await performCharge(db, ledger.chargeId, charge, { gateway })));
    if (payment.status === "pending" && command.refusePending) {
      await command.release?.(db, key);
      return { kind: "pending-refused", message: command.refusePending(value, hold as H) };
    }
    if (payment.status !== "approved" && payment.status !== "pending") {
      await command.release?.(db, key);
      return { kind: "not-taken", status: payment.status, message: payment.message };
    }
    return { kind: "paid", payment, paymentKey: key, hold };
  } catch (error) {
    if (!(error instanceof PricedKeyError)) throw error;
    await command.release?.(db, key).catch(() => {});
    return { kind: "priced-key" };
  }
}

/**
 * Money taken for something that could not be stored: voided or refunded at once ("undone"), or
 * left to the reconciler ("left"; "failed" when even asking failed), which undoes it within
 * minutes; the hold goes back unless the database failed too. "none": nothing of this post's to
 * undo (no approved charge, or a twin's).
 */
export async function undoUnstored(
  db: Database,
  command: Pick<PaidCommand<unknown>, "release">,
  paid: { payment?: PaymentOutcome; paymentKey: string },
  hooks: ReconcileHooks,
): Promise<{ undo: "none" | "undone" | "left" } | { undo: "failed"; error: unknown }> {
  if (!paid.payment || paid.payment.status !== "approved" || paid.payment.repeated) return { undo: "none" };
  try {
    const settled = await undoCharge(db, paid.payment.paymentId, { hooks });
    await command.release?.(db, paid.paymentKey).catch(() => {});
    return { undo: settled?.outcome === "voided" || settled?.outcome === "refunded" ? "undone" : "left" };
  } catch (error) {
    return { undo: "failed", error };
  }
}
