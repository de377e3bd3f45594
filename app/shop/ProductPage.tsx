import { useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { company } from "~/lib/company";
import { formatUsd } from "~/payments/money";
import { useHydrated } from "~/shell/hydrated";
import { QUANTITY_MAX } from "./cart-schema";
import { useShopLoading } from "./hooks";
import { optionCents, priceWithOptions } from "./pricing";
import type { ProductView } from "./types";
import { CART_INTENT_FIELD, CartIntent } from "./cart-intents";

export type ProductPageData =
  { found: true; product: ProductView; selected: Record<string, string>; quantity: number } | { found: false };

/** The field name of a custom field's select: Conform's nested-object naming, read by the cart's one schema. */
export const optionFieldName = (field: string) => `selectedOptions.${field}`;

/** The product page's Quantity field (a query parameter too: 'Update price' keeps the choice without JavaScript). */
export const QUANTITY_FIELD = "quantity";

/** The quantities the page offers: 1 up to the stock (at most QUANTITY_MAX). */
export const quantityChoices = (stock: number) =>
  Array.from({ length: Math.max(0, Math.min(stock, QUANTITY_MAX)) }, (_, i) => i + 1);

/**
 * SPEC §2 Product detail. 'Add to Cart' is a real form posting to /my-cart
 * (intent "add", inventory_id, one `selectedOptions.<field>` per custom field,
 * `quantity` from 1 to the stock); the cart recomputes the price with the same
 * rule (pricing.ts) and holds the units to the stock. A product out of stock
 * says so and has no 'Add to Cart'; a service shows no stock count. Without
 * JavaScript, 'Update price' sends the choices to this page as a GET and the
 * server shows their price; with it, the price follows the selects.
 */
export function ProductPage({ data }: { data: ProductPageData }) {
  const loading = useShopLoading();
  return (
    <section className="section product">
      <div className="shell-container">
        <BackButton />
        <p className="shop-status" role="status">
          {loading}
        </p>
        {data.found ? (
          <ProductDetail
            key={data.product.id}
            product={data.product}
            initial={data.selected}
            initialQuantity={data.quantity}
          />
        ) : (
          <div className="shop-message">
            <h1>Product not found.</h1>
            <p>
              It may have left the catalogue. <Link to="/shop">Browse all products</Link>
            </p>
          </div>
        )}
      </div>
    </section>
  );
}

/** Back to where the visitor came from in the shop (its filters kept), else to the shop. */
function BackButton() {
  const navigate = useNavigate();
  return (
    <Link
      to="/shop"
      className="btn btn-outline product-back"
      onClick={(e) => {
        // React Router numbers its history entries: above 0, the previous one is a page of this site.
        if ((window.history.state as { idx?: number } | null)?.idx) {
          e.preventDefault();
          void navigate(-1);
        }
      }}
    >
      <span aria-hidden="true">←</span> Back
    </Link>
  );
}

function ProductDetail({
  product,
  initial,
  initialQuantity,
}: {
  product: ProductView;
  initial: Record<string, string>;
  initialQuantity: number;
}) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState(initial);
  const choices = quantityChoices(product.stock);
  const price = priceWithOptions(product, selected);
  const cents = price.ok ? price.cents : product.priceCents;
  const inStock = product.stock > 0;
  const name = product.name || "Unknown Product";
  const href = `/product/${product.id}`;

  return (
    <div className="product-layout">
      <img className="product-image" src={product.image} alt={name} width={640} height={400} fetchPriority="high" />
      <div className="product-info">
        <h1 className="product-name">{name}</h1>
        <p className="product-price" aria-live="polite">
          {formatUsd(cents)}
        </p>
        <p className="product-description">{product.description || "No description available."}</p>
        {/* A service's stock is a number of visits, not something on a shelf: not shown (issue 38 item 5). */}
        {inStock && product.service ? null : (
          <p className={inStock ? "product-stock" : "product-stock product-stock--out"}>
            {inStock ? `In stock: ${product.stock}` : "Out of stock"}
          </p>
        )}
        {inStock ? null : <OutOfStock name={name} />}
        {/* Out of stock: nothing to add or price (DECISIONS 25); the note above says what to do instead. */}
        {inStock ? (
          <Form method="post" action="/my-cart" className="product-form">
            <input type="hidden" name={CART_INTENT_FIELD} value={CartIntent.add} />
            <input type="hidden" name="inventory_id" value={product.id} />
            {product.customFields.length > 0 ? (
              <fieldset className="product-options">
                <legend>Customization Options</legend>
                {product.customFields.map((field, i) => {
                  const id = `option-${i}`;
                  return (
                    <div key={field.name} className="shop-field">
                      <label htmlFor={id}>{field.name}</label>
                      <select
                        id={id}
                        name={optionFieldName(field.name)}
                        value={selected[field.name] ?? field.options[0]?.label}
                        onChange={(e) => setSelected({ ...selected, [field.name]: e.currentTarget.value })}
                      >
                        {field.options.map((o) => (
                          <option key={o.label} value={o.label}>
                            {`${o.label} (+${formatUsd(optionCents(o.price) ?? 0)})`}
                          </option>
                        ))}
                      </select>
                    </div>
                  );
                })}
                <button type="submit" className="btn btn-outline" formMethod="get" formAction={href} hidden={hydrated}>
                  Update price
                </button>
              </fieldset>
            ) : null}
            <div className="product-buy">
              <div className="shop-field product-quantity">
                <label htmlFor="product-quantity">Quantity</label>
                <select
                  id="product-quantity"
                  name={QUANTITY_FIELD}
                  defaultValue={String(Math.min(initialQuantity, choices.length))}
                >
                  {choices.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="btn btn-primary btn-lg product-add">
                Add to Cart
              </button>
            </div>
          </Form>
        ) : null}
      </div>
    </div>
  );
}

/** An out-of-stock product is not a dead end: the office can order it, or a quote can replace it. */
function OutOfStock({ name }: { name: string }) {
  return (
    <p className="product-out-of-stock">
      We have no {name} on hand. Call us at <a href={company.phone.href}>{company.phone.display}</a> to order one or to
      hear when it is back, or <Link to="/request-quote">ask for a quote</Link>.
    </p>
  );
}
