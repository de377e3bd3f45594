import { useEffect, useRef, useState } from "react";
import { useFetchers, useNavigation, useRouteLoaderData } from "react-router";
import { SiteLink } from "~/shell/SiteLink";
import { CART_COUNT_PATH } from "./cart-schema";

/** The cart page's route id: its loader data carries the cart's units (CartView.tsx's `units`). */
const CART_ROUTE = "routes/my-cart";
/** Where a post changes the cart: the cart page's forms, the checkout (the units paid for leave it), the JSON calls. */
const changesCart = (action: string | undefined) =>
  !!action && /^\/(?:my-cart|checkout|api\/store\/(?:cart|checkout))(?:[/?]|$)/.test(action);

/** Set once the header has mounted in this document: a later mount (the error page's shell) asks again. */
let mountedBefore = false;

/**
 * The number of units in the visitor's cart, for the header's link (issue 38 item 5). The page
 * says it when it was rendered for this visitor (root.tsx: `rendered`); a page the shared cache
 * answered does not (null), and the browser asks /api/store/cart/count once it runs. On /my-cart
 * the page's own data is the count (it is read again after every change there); after a post that
 * changes the cart anywhere else (the checkout), it is asked again, and when the page comes back
 * from the browser's back-forward cache.
 */
export function useCartCount(rendered: number | null): number | null {
  const [count, setCount] = useState(rendered);
  const cartPageUnits = useRouteLoaderData<{ units?: number }>(CART_ROUTE)?.units;
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const asked = useRef(0);

  const ask = useRef(async () => {
    const ticket = ++asked.current;
    try {
      const response = await fetch(CART_COUNT_PATH, { headers: { Accept: "application/json" }, cache: "no-store" });
      const body = (await response.json()) as { count?: unknown };
      // Only the latest question's answer counts.
      if (ticket === asked.current && response.ok && typeof body.count === "number") setCount(body.count);
    } catch {
      // Offline, or the server is busy: the count stays as it is.
    }
  }).current;

  useEffect(() => {
    if (rendered === null || mountedBefore) void ask();
    mountedBefore = true;
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) void ask();
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, [ask, rendered]);

  useEffect(() => {
    if (cartPageUnits !== undefined) {
      asked.current++; // an answer on its way is older than the page's data
      setCount(cartPageUnits);
    }
  }, [cartPageUnits]);

  // A post that changes the cart, once it and the page it leads to have settled.
  const posting =
    (navigation.state !== "idle" && changesCart(navigation.formAction)) ||
    fetchers.some((f) => f.state !== "idle" && changesCart(f.formAction));
  const posted = useRef(false);
  useEffect(() => {
    if (posting) posted.current = true;
    else if (posted.current) {
      posted.current = false;
      if (cartPageUnits === undefined) void ask();
    }
  }, [posting, cartPageUnits, ask]);

  return count;
}

/** The badge's text: up to 99, then "99+" (its room is kept for three characters). */
const badge = (count: number) => (count > 99 ? "99+" : String(count));

/**
 * The header's cart link: every page, phone and desktop. Its count sits in a badge whose room is
 * always there (absolutely placed over the icon's corner), so nothing moves when it arrives.
 */
export function CartLink({ rendered }: { rendered: number | null }) {
  const count = useCartCount(rendered);
  const label = count ? `Cart, ${count} ${count === 1 ? "item" : "items"}` : "Cart";
  return (
    <SiteLink to="/my-cart" className="icon-btn cart-link" data-testid="header-cart" title="Your cart">
      <CartIcon />
      <span className="visually-hidden">{label}</span>
      <span className="cart-link-count" data-testid="header-cart-count" aria-hidden="true">
        {count ? badge(count) : null}
      </span>
    </SiteLink>
  );
}

function CartIcon() {
  return (
    <svg
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="9" cy="20" r="1.5" />
      <circle cx="18" cy="20" r="1.5" />
      <path d="M2 3h3l2.7 12.4a2 2 0 0 0 2 1.6h8.6a2 2 0 0 0 2-1.6L22 7H6" />
    </svg>
  );
}
