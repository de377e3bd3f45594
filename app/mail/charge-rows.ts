import type { MailRow } from "./render.server";

/**
 * The rows a company copy ends with for a charge, as staff find it in the processor's dashboard:
 * the amount (when the copy has not said it), the card ("—" when the processor named none) and the
 * payment's id with its state. One helper for the booking's, the invoice's and the order's copies.
 */
export function chargeRows(c: { amount?: string; staffCard: string; paid: boolean; paymentId: number }): MailRow[] {
  return [
    ...(c.amount ? [{ label: "Amount", value: c.amount }] : []),
    { label: "Card", value: c.staffCard },
    {
      label: "Payment",
      value: c.paid ? `Approved (payment #${c.paymentId})` : `Being confirmed (payment #${c.paymentId})`,
    },
  ];
}
