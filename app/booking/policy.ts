import { company } from "~/lib/company";

/**
 * What a residential service visit includes and the rules for changing it (DECISIONS 31): shown
 * on the manage page and the receipt, and said in the visitor's mails. Written for this site.
 */
export const VISIT_INCLUDES = [
  "A technician arrives within the window you chose and calls ahead when on the way.",
  "A 25-point inspection of the door, springs, cables, rollers, tracks and opener.",
  "Lubrication and minor adjustments made on the spot.",
  "Any repair or part is priced before work starts; nothing is added to your bill without your yes.",
];

export const WHAT_HAPPENS_NEXT =
  "A technician arrives within your window; if anything about the visit is unclear, our office calls you first.";

/** The rules for changing a visit; `onPage`: said on the booking's own page, whose buttons are below it. */
export function changePolicy(cutoffHours: number, { onPage = false }: { onPage?: boolean } = {}): string {
  const where = onPage ? "with the buttons below" : "on your booking's page";
  return `Until ${cutoffHours} hours before your window starts, you can move your visit to another open window or cancel it ${where}. Cancelling refunds the full amount to the card that paid. A window that costs more is charged the difference (you enter your card again); one that costs less is refunded the difference. Closer to the visit, call us at ${company.phone.display} and we will do what we can.`;
}

/** A payment of the booking is still being confirmed with the processor: said on its page and to a change refused for it. */
export const BOOKING_BUSY_TEXT = `A payment for this booking is still being confirmed with the card processor. We will confirm it by e-mail; until then the booking cannot be changed online, and you do not need to pay again. Questions: ${company.phone.display}.`;
