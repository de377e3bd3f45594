import { createHash } from "node:crypto";
import { assertCents } from "./money";
import { checkCharge } from "./card";
import {
  PAYMENT_MESSAGES,
  type AdjustResult,
  type ChargeRequest,
  type ChargeResult,
  type PaymentGateway,
} from "./gateway";

/**
 * The default gateway (PAYMENT_GATEWAY=sandbox, DECISIONS 15): no network, no
 * money. It runs the same card checks a real charge does (Luhn, brand,
 * length, expiry in America/Detroit, CVC length), then:
 *   4242 4242 4242 4242 → approved
 *   4000 0000 0000 0002 → declined, 'Your card was declined.'
 *   4000 0000 0000 0119 → unknown (as a processor timeout would be), so the
 *                         pending path can be tried end to end without one
 *   any other valid number → approved
 *
 * Stateless on purpose: two instances of the site may answer a retry, so the
 * transaction id is derived from the idempotency key (the same key gives the
 * same id on any instance) rather than remembered. The payments table, not
 * the gateway, stops a second charge.
 */
export const SANDBOX_CARDS = {
  approve: "4242424242424242",
  decline: "4000000000000002",
  unknown: "4000000000000119",
} as const;

export const SANDBOX_TRANSACTION_PREFIX = "sbx_";

export function sandboxTransactionId(idempotencyKey: string): string {
  return (
    SANDBOX_TRANSACTION_PREFIX + createHash("sha256").update(`charge:${idempotencyKey}`).digest("hex").slice(0, 24)
  );
}

export function createSandboxGateway(options: { now?: () => Date } = {}): PaymentGateway {
  const now = options.now ?? (() => new Date());
  return {
    name: "sandbox",

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const checked = checkCharge(request, now());
      if ("refused" in checked) return checked.refused;
      const check = checked.card;
      const digits = request.card.number.replace(/[\s-]/g, "");
      if (digits === SANDBOX_CARDS.decline)
        return { status: "declined", reason: "card", message: PAYMENT_MESSAGES.declined };
      if (digits === SANDBOX_CARDS.unknown) return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
      return {
        status: "approved",
        transactionId: sandboxTransactionId(request.idempotencyKey),
        brand: check.brand,
        last4: check.last4,
      };
    },

    async void(transactionId: string): Promise<AdjustResult> {
      if (!transactionId.startsWith(SANDBOX_TRANSACTION_PREFIX))
        return { status: "declined", message: "Unknown transaction." };
      return { status: "approved", transactionId };
    },

    async refund(transactionId: string, amountCents: number, last4: string): Promise<AdjustResult> {
      assertCents(amountCents);
      if (!transactionId.startsWith(SANDBOX_TRANSACTION_PREFIX))
        return { status: "declined", message: "Unknown transaction." };
      if (!/^\d{4}$/.test(last4)) return { status: "declined", message: "The card's last four digits are required." };
      const id =
        SANDBOX_TRANSACTION_PREFIX +
        createHash("sha256").update(`refund:${transactionId}:${amountCents}`).digest("hex").slice(0, 24);
      return { status: "approved", transactionId: id };
    },
  };
}
