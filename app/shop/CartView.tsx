import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher, useFetchers } from "react-router";
import { formatUsd } from "~/payments/money";
import { useHydrated } from "~/shell/hydrated";
import { CART_BLOCKED_MESSAGE, QUANTITY_MAX } from "./cart-schema";
import { TaxNote } from "./TaxNote";
import type { CartView } from "./cart.server";
import { CART_INTENT_FIELD, CartIntent } from "./cart-intents";

/**
 * A cart line as the page shows it: its options as [field, label] pairs, one unit's price formatted
 * (null: no longer offered), the line's units and price when there are several, the quantities the
 * select offers (none: the line can only be removed) and why it cannot be bought now, if it cannot.
 */
export type CartPageItem = Pick<
  CartView["items"][number],
  "id" | "productId" | "name" | "description" | "image" | "stock" | "service" | "quantity"
> & {
  options: [string, string][];
  price: string | null;
  /** The line's amount ("$1,298.00") when it holds several units and has a price; else null. */
  lineTotal: string | null;
  /** 1 up to what the stock leaves for this line (and its present quantity, should it be beyond). */
  choices: number[];
  problem: string | null;
};

/**
 * What /my-cart shows: the lines, the total of those that can be bought, whether one cannot, and the
 * line a no-JavaScript delete is asking about (`?remove=<item>`); `units`, the header's count.
 */
export type CartPageData = {
  items: CartPageItem[];
  units: number;
  total: string;
  blocked: boolean;
  confirm: { id: string; name: string } | null;
};

/** An action's refusal: its message, and the line it is about when there is one (shown in that line). */
export type CartActionData = { error: string; line?: string };

/** The page's data from the cart as read now (every amount computed here, on the server); `remove` is the `?remove=` of a delete without JavaScript. */
export function cartPageData(cart: CartView, remove: string | null): CartPageData {
  const items = cart.items.map((item): CartPageItem => {
    const room = Math.min(item.room, QUANTITY_MAX);
    const canChange = item.problem !== "outOfStock" && item.problem !== "withdrawn" && room >= 1;
    const choices = canChange ? Array.from({ length: Math.max(room, item.quantity) }, (_, i) => i + 1) : [];
    return {
      id: item.id,
      productId: item.productId,
      name: item.name,
      description: item.description,
      image: item.image,
      stock: item.stock,
      service: item.service,
      quantity: item.quantity,
      options: Object.entries(item.selectedOptions),
      price: item.priceCents === null ? null : formatUsd(item.priceCents),
      lineTotal: item.lineCents === null || item.quantity === 1 ? null : formatUsd(item.lineCents),
      choices,
      problem: item.problemMessage,
    };
  });
  const confirm = items.find((item) => item.id === remove?.trim().toLowerCase()) ?? null;
  return {
    items,
    units: cart.items.reduce((sum, item) => sum + item.quantity, 0),
    total: formatUsd(cart.totalCents),
    blocked: cart.blocked,
    confirm: confirm && { id: confirm.id, name: confirm.name },
  };
}

// The dialog (and Mantine's modal with it) loads after the page, not before it shows.
const loadDialog = () => import("./cart-dialog");
const CartDialog = lazy(loadDialog);

/** Quantity forms of the page (one per line), told apart from the delete dialog's form by this key. */
const quantityFetcherKey = (itemId: string) => `cart-quantity-${itemId}`;

/**
 * The cart page (issue 17 item 4, SPEC §2 Cart, DECISIONS 34): the lines with
 * their price today and their quantity, the total of what can be bought, and
 * a delete that asks first: with JavaScript in the 'Confirm Deletion' dialog
 * (cart-dialog.tsx); without, the delete button is a GET to `?remove=<item>`,
 * which shows the same question with a POST form. A line that cannot be bought
 * now says why, is left out of the total and turns 'Proceed to Checkout' off.
 */
export function CartPage({ data, action }: { data: CartPageData; action?: CartActionData }) {
  const { items, total, blocked, confirm } = data;
  // A quantity being changed (with JavaScript): the total is the server's, so it waits, greyed.
  const updating = useFetchers().some((f) => f.key.startsWith("cart-quantity-") && f.state !== "idle");
  // A refusal about one line is shown in that line; any other above the cart.
  const error = action && !items.some((item) => item.id === action.line) ? action.error : undefined;
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
                  refusal={action?.line === item.id ? action.error : undefined}
                  onDelete={(button) => {
                    opener.current = button;
                    setTarget({ id: item.id, name: item.name });
                  }}
                />
              ))}
            </ul>
            <aside className="cart-summary" aria-labelledby="cart-summary-title" aria-busy={updating || undefined}>
              <h2 id="cart-summary-title">Order summary</h2>
              <p className="cart-total">
                <span>Total</span> <strong data-testid="cart-total">{total}</strong>
              </p>
              <TaxNote />
              {blocked ? (
                <>
                  <p id="cart-blocked" className="cart-blocked">
                    {CART_BLOCKED_MESSAGE}
                  </p>
                  <button
                    type="button"
                    className="btn btn-primary btn-lg btn-block"
                    disabled
                    aria-describedby="cart-blocked"
                  >
                    Proceed to Checkout
                  </button>
                </>
              ) : (
                <Link className="btn btn-primary btn-lg btn-block" to="/checkout">
                  Proceed to Checkout
                </Link>
              )}
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

function CartRow({
  item,
  refusal,
  onDelete,
}: {
  item: CartPageItem;
  /** The page action's refusal about this line (an add or an update without JavaScript). */
  refusal?: string;
  onDelete: (button: HTMLElement | null) => void;
}) {
  const fetcher = useFetcher<CartActionData>({ key: quantityFetcherKey(item.id) });
  // With JavaScript, once the visitor changes this line the page's refusal is old news: only the answer
  // to the latest change is shown (an answer kept from an earlier change, `seen`, is not shown again).
  const [sent, setSent] = useState(false);
  const seen = useRef<CartActionData | undefined>(undefined);
  const busy = fetcher.state !== "idle";
  const answer = !busy && fetcher.data !== seen.current ? fetcher.data?.error : undefined;
  const alert = sent ? answer : refusal;
  const id = `cart-line-${item.id}`;
  return (
    <li className={item.problem ? "cart-item cart-item--blocked" : "cart-item"} aria-busy={busy || undefined}>
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
        <h2 className="cart-item-name" id={id}>
          <Link to={`/product/${item.productId}`}>{item.name}</Link>
        </h2>
        <p className="cart-item-price">
          {item.price ?? "No longer available with these options"}
          {item.price && item.quantity > 1 ? <span className="cart-item-each"> each</span> : null}
        </p>
        {item.problem ? (
          <>
            <p className="cart-item-stock cart-item-stock--out">{item.problem}</p>
            {item.price ? <p className="cart-item-not-counted">Not counted in the total.</p> : null}
          </>
        ) : item.lineTotal ? (
          <p className="cart-item-line-total">Subtotal: {item.lineTotal}</p>
        ) : null}
        {item.description ? <p className="cart-item-description">{item.description}</p> : null}
        {/* A service's stock is a number of visits, not something on a shelf: not shown (issue 38 item 5). */}
        {item.problem || item.service ? null : <p className="cart-item-stock">{`In stock: ${item.stock}`}</p>}
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
      <div className="cart-item-actions">
        {item.choices.length > 0 ? (
          <QuantityForm
            item={item}
            fetcher={fetcher}
            onSend={() => {
              seen.current = fetcher.data;
              setSent(true);
            }}
          />
        ) : (
          <p className="cart-item-quantity-fixed">Quantity: {item.quantity}</p>
        )}
        {alert ? (
          <p role="alert" className="cart-item-alert">
            {alert}
          </p>
        ) : null}
        <DeleteButton item={item} onDelete={onDelete} />
      </div>
    </li>
  );
}

/**
 * A line's quantity: a real form posting `intent=update` to the page's action,
 * its Update button for a visitor without JavaScript; with it, choosing a
 * number sends it at once (the last of quick choices, once they stop) and the
 * select shows it while the server answers.
 */
function QuantityForm({
  item,
  fetcher,
  onSend,
}: {
  item: CartPageItem;
  fetcher: ReturnType<typeof useFetcher<CartActionData>>;
  /** Called as a change is sent (with JavaScript). */
  onSend: () => void;
}) {
  const hydrated = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const [chosen, setChosen] = useState<number | null>(null);
  const pending = fetcher.formData ? Number(fetcher.formData.get("quantity")) : null;
  // While a choice is on its way the select shows it; once answered, the server's quantity.
  const shown = chosen ?? pending ?? item.quantity;
  const selectId = `quantity-${item.id}`;
  return (
    <fetcher.Form method="post" action="/my-cart" className="cart-item-quantity">
      <input type="hidden" name={CART_INTENT_FIELD} value={CartIntent.update} />
      <input type="hidden" name="cart_id" value={item.id} />
      <label htmlFor={selectId}>Quantity</label>
      <select
        id={selectId}
        name="quantity"
        value={String(shown)}
        aria-describedby={`cart-line-${item.id}`}
        onChange={(event) => {
          const form = event.currentTarget.form;
          setChosen(Number(event.currentTarget.value));
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            onSend();
            setChosen(null);
            if (form) void fetcher.submit(form);
          }, QUANTITY_SETTLE_MS);
        }}
      >
        {item.choices.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {/* Without JavaScript the choice is sent with this; with it, as soon as it is made. */}
      <button type="submit" className="btn btn-outline" hidden={hydrated}>
        Update
      </button>
    </fetcher.Form>
  );
}

/** Choices made within this long of each other (arrow keys on the select) are sent as one. */
const QUANTITY_SETTLE_MS = 250;

function DeleteButton({ item, onDelete }: { item: CartPageItem; onDelete: (button: HTMLElement | null) => void }) {
  return (
    /* Without JavaScript a GET to the confirmation step; with it, the dialog. */
    <form
      method="get"
      // The fragment brings the question into view and starts the keyboard's next Tab at it.
      action="/my-cart#cart-confirm-title"
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
  );
}

/** The no-JavaScript confirmation: the dialog's question as a page state with a real form. */
function ConfirmStep({ item }: { item: { id: string; name: string } }) {
  return (
    <div className="cart-confirm" role="region" aria-labelledby="cart-confirm-title">
      <h2 id="cart-confirm-title" tabIndex={-1}>
        Confirm Deletion
      </h2>
      <p>Are you sure you want to remove {item.name} from your cart?</p>
      <Form method="post" action="/my-cart" className="button-row" replace>
        <input type="hidden" name={CART_INTENT_FIELD} value={CartIntent.delete} />
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
