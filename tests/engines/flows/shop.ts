import { formatUsd } from "../../../app/payments/money";
import { seedProducts } from "../../../db/seed-data/catalogue";
import type { Driver } from "../driver";
import { enterCard, fail, passSpamCheck, see, seeUrl, seeValue, type Flow } from "../flow";

const CHECKOUT = 'form[aria-label="Checkout form"]';
const TOTAL = '[data-testid="cart-total"]';

function product(name: string): { name: string; cents: number } {
  const found = seedProducts.find((p) => p.name === name) ?? fail(`no product "${name}" in the catalogue`);
  return { name, cents: found.priceCents };
}

/** Two products without options, with stock to spare, that the Chromium suite's quantity tests do not touch. */
const SEAL = product("Garage Door Bottom Weather Seal");
const GUARD = product("Micro-Mesh Gutter Guard (per 20 ft)");

/** Finds the product with the shop's search, opens it and adds it to the cart. */
async function addToCart(d: Driver, p: { name: string; cents: number }, search: string): Promise<void> {
  await d.goto(`/shop?q=${encodeURIComponent(search)}`);
  await d.click({ within: { css: ".shop-card", text: p.name }, css: "a", text: "View Details" });
  await see(d, "h1", p.name);
  await see(d, ".product-price", formatUsd(p.cents));
  await d.click({ css: "button[type=submit]", text: "Add to Cart" });
  await seeUrl(d, /\/my-cart$/);
  await see(d, '[aria-label="Items in your cart"]', p.name);
}

/** Add two products, set the first one's quantity to 2, delete the second through the dialog, check out with 4242…. */
export const shop: Flow = {
  name: "add to cart, change the quantity, delete through the dialog, check out",
  async run(d, { tag, shot }) {
    await addToCart(d, SEAL, "weather seal");
    await addToCart(d, GUARD, "micro-mesh");
    await see(d, TOTAL, formatUsd(SEAL.cents + GUARD.cents));

    // The quantity: sent as soon as it is chosen; the line and the total follow.
    const sealLine = { css: ".cart-item", text: SEAL.name };
    await d.select({ within: sealLine, label: "Quantity" }, "2");
    await see(d, TOTAL, formatUsd(2 * SEAL.cents + GUARD.cents));
    await see(d, { within: sealLine, css: ".cart-item-line-total" }, `Subtotal: ${formatUsd(2 * SEAL.cents)}`);
    await seeValue(d, { within: sealLine, label: "Quantity" }, "2");
    await shot("cart", "body"); // the page's top: the header (and its cart link) over the cart

    // Deleted after the dialog's question.
    await d.click(`button[aria-label="Delete ${GUARD.name}"]`);
    await see(d, '[role="dialog"]', `Are you sure you want to remove ${GUARD.name} from your cart?`);
    await d.click({ within: '[role="dialog"]', css: "button", text: "Yes, Delete" });
    await d.waitFor('[role="dialog"]', { gone: true });
    await see(d, TOTAL, formatUsd(2 * SEAL.cents));
    await d.waitFor({ css: ".cart-item", text: GUARD.name }, { gone: true });

    // The checkout: the summary, the form, the order's page.
    await d.click({ css: "a", text: "Proceed to Checkout" });
    await seeUrl(d, /\/checkout$/);
    await see(d, '[data-testid="checkout-total"]', formatUsd(2 * SEAL.cents));
    await d.fill({ within: CHECKOUT, label: "Full Name" }, "Katherine Johnson");
    await d.fill({ within: CHECKOUT, label: "Email" }, `shop.${tag}@example.com`);
    await d.fill({ within: CHECKOUT, label: "Phone" }, "8105550178");
    await d.fill({ within: CHECKOUT, label: "Address" }, "401 Court St");
    await d.fill({ within: CHECKOUT, label: "City" }, "Flint");
    await d.fill({ within: CHECKOUT, label: "ZIP Code" }, "48502");
    await enterCard(d, CHECKOUT, null);
    await passSpamCheck(d, CHECKOUT);
    await d.click({ within: CHECKOUT, css: "button[type=submit]", text: "Place Order" });
    await seeUrl(d, /\/order\/[A-Za-z0-9_-]{43}\?placed/);
    await see(d, "h1", "Your Order Was Successful!");
    await see(d, '[data-testid="order-lines-total"]', formatUsd(2 * SEAL.cents));
    await see(d, "main", SEAL.name);
  },
};
