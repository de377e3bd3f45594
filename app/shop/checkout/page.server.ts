import { paidFormBootstrap } from "~/forms/actions.server";
import { getDb } from "~/lib/db.server";
import { centsToDecimal, formatUsd } from "~/payments/money";
import { cartIdOf, readCart } from "../cart.server";
import { unitsAndPrice } from "../pricing";

/**
 * The checkout page's data (SPEC §2 Checkout, issue 17 item 5): the cookie's cart as the server
 * prices it now, each line as the order summary shows it, and the form's bootstrap. The amount
 * charged is the cart's at the moment of the post, and only if it is still the total shown here
 * (./handle.server.ts).
 */
export async function loadCheckoutPage(request: Request) {
  const cart = await readCart(await getDb(), await cartIdOf(request));
  return {
    // Paid with this form a moment ago (Back after paying): the order's link leads the page (decision 060).
    form: await paidFormBootstrap(request),
    items: cart.items.map((item) => ({
      id: item.id,
      name: item.name,
      image: item.image,
      // SPEC's price per item, with the units when there are several ("2 × $649.00").
      price: item.priceCents === null ? null : unitsAndPrice(item.quantity, item.priceCents),
      problem: item.problemMessage,
    })),
    /** A line that cannot be bought now: no form, nothing to fill in, until the cart is changed (DECISIONS 34). */
    blocked: cart.blocked,
    total: cart.totalCents > 0 ? formatUsd(cart.totalCents) : null,
    /** What the form posts as `total`: the order is refused if the cart's total is not this any more. */
    shownTotal: centsToDecimal(cart.totalCents),
  };
}

/** What the checkout's loader gives its view (./CheckoutPage.tsx). */
export type CheckoutPageData = Awaited<ReturnType<typeof loadCheckoutPage>>;
