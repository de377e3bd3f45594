import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { formatUsd } from "~/payments/money";
import type { CartView } from "./cart.server";

/** A cart line as the page shows it: its options as [field, label] pairs, its price formatted (null: no longer offered). */
export type CartPageItem = Pick<
  CartView["items"][number],
  "id" | "productId" | "name" | "description" | "image" | "stock"
> & { options: [string, string][]; price: string | null };

/** What /my-cart shows: the lines, the total, and the line a no-JavaScript delete is asking about (`?remove=<item>`). */
export type CartPageData = {
  items: CartPageItem[];
  total: string;
  confirm: { id: string; name: string } | null;
};

/** The page's data from the cart as read now; `remove` is the `?remove=` of a delete without JavaScript. */
export function cartPageData(cart: CartView, remove: string | null): CartPageData {
  const items = cart.items.map((item) => ({
    id: item.id,
    productId: item.productId,
    name: item.name,
    description: item.description,
    image: item.image,
    stock: item.stock,
    options: Object.entries(item.selectedOptions),
    price: item.priceCents === null ? null : formatUsd(item.priceCents),
  }));
  const confirm = items.find((item) => item.id === remove?.trim().toLowerCase()) ?? null;
  return { items, total: formatUsd(cart.totalCents), confirm: confirm && { id: confirm.id, name: confirm.name } };
}

// The dialog (and Mantine's modal with it) loads after the page, not before it shows.
const loadDialog = () => import("./cart-dialog");
const CartDialog = lazy(loadDialog);

/**
 * The cart page (issue 17 item 4, SPEC §2 Cart): the lines with their price
 * today, the total, and a delete that asks first: with JavaScript in the
 * 'Confirm Deletion' dialog (cart-dialog.tsx); without, the delete button is a
 * GET to `?remove=<item>`, which shows the same question with a POST form.
 */
export function CartPage({ data, error }: { data: CartPageData; error?: string }) {
  const { items, total, confirm } = data;
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The delete button that opened the dialog: focus goes back to it on cancel.
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => void loadDialog(), []);

  return (
    <section className="section cart-page">
      <div className="shell-container">
        <h1 className="section-title section-title--left" ref={heading} tabIndex={-1}>
          Your Shopping Cart
        </h1>
        {error ? (
          <p role="alert" className="cart-error">
            {error}
          </p>
        ) : null}
        {confirm ? <ConfirmStep item={confirm} /> : null}
        {items.length === 0 ? (
          <div className="cart-empty">
            <p>Your cart is empty</p>
            <Link className="btn btn-primary" to="/shop">
              Browse the shop
            </Link>
          </div>
        ) : (
          <div className="cart-layout">
            <ul className="cart-items" aria-label="Items in your cart">
              {items.map((item) => (
                <CartRow
                  key={item.id}
                  item={item}
                  onDelete={(button) => {
                    opener.current = button;
                    setTarget({ id: item.id, name: item.name });
                  }}
                />
              ))}
            </ul>
            <aside className="cart-summary" aria-labelledby="cart-summary-title">
              <h2 id="cart-summary-title">Order summary</h2>
              <p className="cart-total">
                <span>Total</span> <strong data-testid="cart-total">{total}</strong>
              </p>
              <Link className="btn btn-primary btn-lg btn-block" to="/checkout">
                Proceed to Checkout
              </Link>
            </aside>
          </div>
        )}
      </div>
      {target ? (
        <Suspense fallback={null}>
          <CartDialog
            item={target}
            onClose={(deleted) => {
              setTarget(null);
              // After a deletion the row and its button are gone: focus goes to the page's heading.
              (deleted ? heading.current : opener.current)?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

function CartRow({ item, onDelete }: { item: CartPageItem; onDelete: (button: HTMLElement | null) => void }) {
  return (
    <li className="cart-item">
      <img
        className="cart-item-image"
        src={item.image}
        alt=""
        width={120}
        height={90}
        loading="lazy"
        decoding="async"
      />
      <div className="cart-item-body">
        <h2 className="cart-item-name">
          <Link to={`/product/${item.productId}`}>{item.name}</Link>
        </h2>
        <p className="cart-item-price">{item.price ?? "No longer available with these options"}</p>
        {item.description ? <p className="cart-item-description">{item.description}</p> : null}
        <p className={item.stock > 0 ? "cart-item-stock" : "cart-item-stock cart-item-stock--out"}>
          {item.stock > 0 ? `In stock: ${item.stock}` : "Out of stock"}
        </p>
        {item.options.length > 0 ? (
          <ul className="cart-item-options" aria-label="Selected options">
            {item.options.map(([name, value]) => (
              <li key={name}>
                {name}: {value}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {/* Without JavaScript a GET to the confirmation step; with it, the dialog. */}
      <form
        method="get"
        action="/my-cart"
        className="cart-item-delete"
        onSubmit={(event) => {
          event.preventDefault();
          onDelete(event.currentTarget.querySelector("button"));
        }}
      >
        <button
          type="submit"
          name="remove"
          value={item.id}
          className="btn btn-outline"
          aria-label={`Delete ${item.name}`}
        >
          <TrashIcon />
          <span>Delete</span>
        </button>
      </form>
    </li>
  );
}

/** The no-JavaScript confirmation: the dialog's question as a page state with a real form. */
function ConfirmStep({ item }: { item: { id: string; name: string } }) {
  return (
    <div className="cart-confirm" role="region" aria-labelledby="cart-confirm-title">
      <h2 id="cart-confirm-title">Confirm Deletion</h2>
      <p>Are you sure you want to remove {item.name} from your cart?</p>
      <Form method="post" action="/my-cart" className="button-row" replace>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="cart_id" value={item.id} />
        <button type="submit" className="btn btn-primary">
          Yes, Delete
        </button>
        <Link className="btn btn-outline" to="/my-cart" replace>
          Cancel
        </Link>
      </Form>
    </div>
  );
}

function TrashIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14M10 11v6M14 11v6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
