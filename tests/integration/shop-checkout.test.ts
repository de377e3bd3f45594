import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { categories, products } from "@db/schema";
import { apiFormAction } from "~/forms/actions.server";
import { CARD_SECRETS_NOTICE } from "~/forms/card-names";
import { PAYMENT_DECLINED_MESSAGE, runForm, type FormDefinition } from "~/forms/pipeline";
import { addToCart, cartCookieHeader } from "~/shop/cart.server";
import { checkoutForm } from "~/shop/checkout/handle.server";
import {
  CHECKOUT_SUCCESS,
  EMPTY_CART_MESSAGE,
  ORDER_REFERENCE_PATTERN,
  STOCK_MESSAGES,
} from "~/shop/checkout/identity";
import { findOwnOrder, findOwnOrderView, paymentConfirmationPath } from "~/shop/checkout/orders.server";
import { loader as checkoutLoader } from "~/routes/checkout";
import { CART_LINE_PROBLEMS } from "~/shop/cart-schema";
import { outsideInstallationMessage } from "~/maps/coverage";
import { coverageOf } from "~/maps/coverage.server";
import { createTestDatabase } from "../support/db";
import { routesUse } from "./shop-support";
import { altchaToken, count, formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { captureLogs, checkoutFields, secretsIn } from "./payments-support";

/**
 * The checkout on the real database with the sandbox gateway (issue 17 item
 * 5): the amount is the cookie cart's, priced from the catalogue when the
 * units are held (a posted total is never charged, and one that differs
 * refuses the order before any charge); an approval writes the order,
 * its lines, the payment's link, the stock taken, the cart's lines removed
 * and both e-mails in one transaction; a declined card keeps nothing but its
 * payments row; the last unit raced by two carts goes to one buyer and one
 * charge. The catalogue is this file's own.
 */
let conn: Connection;
const logs = captureLogs();
let category: number;

beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
  routesUse(conn);
  const [cat] = await conn.db.insert(categories).values({ name: "Checkout test" }).returning();
  category = cat!.id;
});
afterAll(async () => {
  logs.restore();
  await conn?.close();
});

const DECLINED = "4000 0000 0000 0002";

async function product(over: Partial<typeof products.$inferInsert> = {}) {
  const [row] = await conn.db
    .insert(products)
    .values({
      name: `Product ${crypto.randomUUID().slice(0, 6)}`,
      priceCents: 3900,
      image: "/images/test/x.svg",
      categoryId: category,
      stock: 5,
      ...over,
    })
    .returning();
  return row!;
}

let buyers = 0;
/** A visitor (an address of their own) with a cart of these products (options by field name), and their cookie. */
async function buyer(...lines: { id: number; options?: Record<string, string> }[]) {
  let cartId: string | null = null;
  const ip = `203.0.113.${++buyers}`;
  for (const line of lines) {
    const added = await addToCart(conn.db, cartId, { inventory_id: line.id, selectedOptions: line.options ?? {} }, ip);
    if (!added.ok) throw new Error(added.message);
    cartId = added.cartId;
  }
  return { cartId, cookie: cartId ? (await cartCookieHeader(cartId)).split(";")[0]! : "" };
}

const fields = checkoutFields;

function htmlPost(cookie: string, body: Record<string, string>, key: string = crypto.randomUUID()) {
  return formPost(
    "/checkout",
    toFormData({ ...body, ...honeypotFields(), ...sumAnswer(), submission_key: key }),
    cookie ? { Cookie: cookie } : {},
  );
}
const run = (request: Request, def: FormDefinition = checkoutForm as FormDefinition) =>
  runForm(def, request, { db: conn.db, clientIp: nextIp() });

/** The /checkout page's data for this cookie, as its loader gives it. */
const checkoutPage = async (cookie: string) =>
  checkoutLoader({
    request: new Request("http://localhost:3000/checkout", { headers: { Cookie: cookie } }),
  } as Parameters<typeof checkoutLoader>[0]);

const stockOf = async (id: number) =>
  (await conn.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const cartLines = async (cartId: string | null) =>
  (await rows(conn.db, `select * from cart_items where cart_id = '${cartId}'`)).length;

async function state() {
  return {
    payments: await count(conn.db, "payments"),
    orders: await count(conn.db, "orders"),
    lines: await count(conn.db, "order_lines"),
    holds: await count(conn.db, "stock_holds"),
    mail: await count(conn.db, "outbox"),
  };
}

type Order = {
  id: number;
  reference: string;
  status: string;
  total_cents: number;
  payment_id: number;
  cart_id: string;
  email: string;
  card_last4: string;
};
const orderOf = async (email: string) =>
  (await rows<Order>(conn.db, `select * from orders where email = '${email}'`))[0];

describe("checkout", () => {
  it("approved: the cart's total charged once; order, lines at purchase price, payment link, stock taken, cart emptied, both e-mails; 303 target is the order's page", async () => {
    const opener = await product({
      name: "Quiet Opener",
      priceCents: 54900,
      stock: 4,
      customFields: [
        {
          name: "Horsepower",
          options: [
            { label: "1/2 HP", price: 0 },
            { label: "3/4 HP", price: 60 },
          ],
        },
      ],
    });
    const remote = await product({ name: "Spare Remote", priceCents: 3900, stock: 3 });
    const { cartId, cookie } = await buyer(
      { id: opener.id, options: { Horsepower: "3/4 HP" } },
      { id: remote.id },
      { id: remote.id },
    );
    const before = await state();
    const body = fields({ total: "687.00" });
    const outcome = await run(htmlPost(cookie, body));
    expect(outcome).toMatchObject({ ok: true, status: 200 });

    const order = (await orderOf(body.email))!;
    // 549.00 + 60.00 + 2 × 39.00, as the page showed it.
    expect(order).toMatchObject({ status: "paid", total_cents: 68700, cart_id: cartId, card_last4: "4242" });
    // The order's own page, by a token the row keeps only as its hash; the buyer sees the reference, never the row id.
    expect(outcome.redirectTo).toMatch(/^\/order\/[A-Za-z0-9_-]{43}\?placed$/);
    expect(order.reference).toMatch(ORDER_REFERENCE_PATTERN);
    expect(outcome.message).toContain(`$687.00 charged to Visa ending in 4242 for order ${order.reference}.`);
    // The remote added twice is one line of two units: one unit's price, the line's total beside it.
    const lines = await rows(
      conn.db,
      `select name, selected_options, price_cents, quantity, line_total_cents, product_id from order_lines where order_id = ${order.id} order by id`,
    );
    expect(lines).toEqual([
      {
        name: "Quiet Opener",
        selected_options: { Horsepower: "3/4 HP" },
        price_cents: 60900,
        quantity: 1,
        line_total_cents: 60900,
        product_id: opener.id,
      },
      {
        name: "Spare Remote",
        selected_options: {},
        price_cents: 3900,
        quantity: 2,
        line_total_cents: 7800,
        product_id: remote.id,
      },
    ]);
    const [payment] = await rows(conn.db, `select * from payments where id = ${order.payment_id}`);
    expect(payment).toMatchObject({
      kind: "charge",
      state: "succeeded",
      amount_cents: 68700,
      purpose: "order",
      intent: "checkout",
      reference_table: "orders",
      reference_id: order.id,
    });
    expect(await stockOf(opener.id)).toBe(3);
    expect(await stockOf(remote.id)).toBe(1);
    expect(await cartLines(cartId)).toBe(0);
    expect(await state()).toEqual({
      ...before,
      payments: before.payments + 1,
      orders: before.orders + 1,
      lines: before.lines + 2,
      mail: before.mail + 2,
    });

    const mail = await rows<{ to: string; kind: string; text: string }>(
      conn.db,
      `select "to", kind, text from outbox where source_table = 'orders' and source_id = ${order.id} order by id`,
    );
    expect(mail.map((m) => m.kind)).toEqual(["company", "receipt"]);
    expect(mail[1]!.to).toBe(body.email);
    expect(mail[1]!.text).toContain(`$687.00 charged to Visa ending in 4242 for order ${order.reference}.`);
    expect(mail[0]!.text).toContain("Quiet Opener");
    expect(mail[0]!.text).toContain("2 × $39.00 = $78.00");
    expect(secretsIn(JSON.stringify(mail))).toEqual([]);

    // The confirmation is the placing cart's only.
    expect(await findOwnOrder(conn.db, order.id, cartId)).toEqual({
      id: order.id,
      reference: order.reference,
      totalCents: 68700,
      status: "paid",
    });
    expect(await findOwnOrder(conn.db, order.id, (await buyer({ id: remote.id })).cartId)).toBeNull();
    expect(await findOwnOrder(conn.db, order.id, null)).toBeNull();
    expect(await findOwnOrder(conn.db, order.id + 1000, cartId)).toBeNull();
    expect(await findOwnOrderView(conn.db, { paymentId: order.payment_id }, cartId)).toMatchObject({
      reference: order.reference,
      total: "$687.00",
    });
  });

  it("declined: the gateway's message, nothing kept but the payments row; the cart, the stock and every field but the card number and CVV stay", async () => {
    const item = await product({ stock: 2 });
    const { cartId, cookie } = await buyer({ id: item.id });
    const before = await state();
    const body = fields({ cardNumber: DECLINED });
    const outcome = await run(htmlPost(cookie, body));
    expect(outcome).toMatchObject({ ok: false, status: 402, message: PAYMENT_DECLINED_MESSAGE });
    expect(await state()).toEqual({ ...before, payments: before.payments + 1 });
    const [payment] = await rows(conn.db, `select kind, state, amount_cents from payments order by id desc limit 1`);
    expect(payment).toEqual({ kind: "charge", state: "declined", amount_cents: 3900 });
    expect(await cartLines(cartId)).toBe(1);
    expect(await stockOf(item.id)).toBe(2);
    const kept = outcome.reply?.initialValue as Record<string, unknown>;
    expect(kept).toMatchObject({ name: body.name, email: body.email, address: body.address, expiry: "04/30" });
    expect(kept.cardNumber).toBeUndefined();
    expect(kept.cvv).toBeUndefined();
    // ...and the page says why they are empty.
    expect(outcome.notice).toBe(CARD_SECRETS_NOTICE);
  });

  it("an empty cart (no cookie, or a cart with nothing left) is refused with SPEC's words, nothing charged", async () => {
    const before = await state();
    const none = await run(htmlPost("", fields()));
    expect(none).toMatchObject({ ok: false, status: 400, message: EMPTY_CART_MESSAGE });
    const item = await product();
    const { cartId, cookie } = await buyer({ id: item.id });
    await rows(conn.db, `delete from cart_items where cart_id = '${cartId}'`);
    const emptied = await run(htmlPost(cookie, fields()));
    expect(emptied).toMatchObject({ ok: false, status: 400, message: EMPTY_CART_MESSAGE });
    expect(await state()).toEqual(before);
  });

  it("more units than the stock (it fell after they were added): refused naming the product, nothing charged or held", async () => {
    const item = await product({ name: "Last Keypad", stock: 2 });
    const { cookie } = await buyer({ id: item.id }, { id: item.id });
    await conn.db.update(products).set({ stock: 1 }).where(eq(products.id, item.id));
    const before = await state();
    const outcome = await run(htmlPost(cookie, fields()));
    expect(outcome).toMatchObject({ ok: false, status: 409, message: STOCK_MESSAGES.fewer("Last Keypad", 1) });
    expect(await state()).toEqual(before);
    await conn.db.update(products).set({ stock: 0 }).where(eq(products.id, item.id));
    expect(await run(htmlPost(cookie, fields()))).toMatchObject({
      status: 409,
      message: STOCK_MESSAGES.outOfStock("Last Keypad"),
    });
  });

  it("a cart with a line that cannot be bought (out of stock, an option withdrawn) is refused before any charge, on the page and the API; the checkout page shows why and no form", async () => {
    const bay = await product({ name: "Bay Window", priceCents: 345000, stock: 1 });
    const remote = await product({ name: "Spare Remote", priceCents: 3900, stock: 5 });
    const { cartId, cookie } = await buyer({ id: bay.id }, { id: remote.id });
    // Another buyer takes the last bay window.
    await conn.db.update(products).set({ stock: 0 }).where(eq(products.id, bay.id));
    const before = await state();

    const page = await checkoutPage(cookie);
    expect(page).toMatchObject({ blocked: true, total: "$39.00" });
    expect(page.items.map((i) => i.problem)).toEqual([CART_LINE_PROBLEMS.outOfStock, null]);

    // The page's total as it shows it: refused all the same, nothing charged or held.
    const html = await run(htmlPost(cookie, fields({ total: "39.00" })));
    expect(html).toMatchObject({ ok: false, status: 409, message: STOCK_MESSAGES.outOfStock("Bay Window") });
    const api = await apiFormAction(
      checkoutForm,
      {
        request: formPost(
          "/api/store/checkout",
          { ...fields({ total: "39.00" }), recaptcha_token: await altchaToken() },
          { Origin: "", "Sec-Fetch-Site": "", Cookie: cookie },
        ),
      },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(api.status).toBe(409);
    expect(await api.json()).toEqual({ success: false, message: STOCK_MESSAGES.outOfStock("Bay Window") });
    expect(await state()).toEqual(before);
    expect(await cartLines(cartId)).toBe(2);

    // An option no longer offered blocks it too.
    const door = await product({
      name: "Entry Door",
      stock: 3,
      customFields: [
        {
          name: "Glass",
          options: [
            { label: "Clear", price: 0 },
            { label: "Frosted", price: 50 },
          ],
        },
      ],
    });
    const withdrawn = await buyer({ id: door.id, options: { Glass: "Frosted" } });
    await conn.db
      .update(products)
      .set({ customFields: [{ name: "Glass", options: [{ label: "Clear", price: 0 }] }] })
      .where(eq(products.id, door.id));
    expect(await checkoutPage(withdrawn.cookie)).toMatchObject({ blocked: true, total: null });
    expect(await run(htmlPost(withdrawn.cookie, fields()))).toMatchObject({
      ok: false,
      status: 409,
      message: STOCK_MESSAGES.optionGone("Entry Door"),
    });
    expect(await state()).toEqual(before);
  });

  it("takes the stock by quantity: the order's line keeps its units and the money multiplies by them", async () => {
    const door = await product({ name: "Steel Entry Door", priceCents: 64900, stock: 5 });
    const { cartId, cookie } = await buyer({ id: door.id }, { id: door.id }, { id: door.id });
    expect(await checkoutPage(cookie)).toMatchObject({
      total: "$1,947.00",
      shownTotal: "1947.00",
      items: [{ name: "Steel Entry Door", price: "3 × $649.00" }],
    });
    const body = fields({ total: "1947.00" });
    expect(await run(htmlPost(cookie, body))).toMatchObject({ ok: true });
    const order = (await orderOf(body.email))!;
    expect(order.total_cents).toBe(194700);
    expect(await rows(conn.db, `select amount_cents from payments where id = ${order.payment_id}`)).toEqual([
      { amount_cents: 194700 },
    ]);
    expect(
      await rows(
        conn.db,
        `select quantity, price_cents, line_total_cents from order_lines where order_id = ${order.id}`,
      ),
    ).toEqual([{ quantity: 3, price_cents: 64900, line_total_cents: 194700 }]);
    expect(await stockOf(door.id)).toBe(2);
    expect(await cartLines(cartId)).toBe(0);
  });

  it("the last units raced by two carts of two each (3 in stock): one order of two, one charge; the other buyer is told how many are left, not charged", async () => {
    const item = await product({ name: "Patio Door", priceCents: 150000, stock: 3 });
    const a = await buyer({ id: item.id }, { id: item.id });
    const b = await buyer({ id: item.id }, { id: item.id });
    const before = await state();
    const outcomes = await Promise.all([run(htmlPost(a.cookie, fields())), run(htmlPost(b.cookie, fields()))]);
    expect(outcomes.map((o) => o.ok).sort()).toEqual([false, true]);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({
      status: 409,
      message: STOCK_MESSAGES.fewer("Patio Door", 1),
    });
    expect(await state()).toEqual({
      ...before,
      payments: before.payments + 1,
      orders: before.orders + 1,
      lines: before.lines + 1,
      mail: before.mail + 2,
    });
    expect(await stockOf(item.id)).toBe(1);
    const [paid] = await rows<{ amount_cents: number }>(
      conn.db,
      `select amount_cents from payments order by id desc limit 1`,
    );
    expect(paid).toEqual({ amount_cents: 300000 });
    // The one left is the other buyer's to take, after lowering the quantity.
    const loser = outcomes[0]!.ok ? b : a;
    expect(await checkoutPage(loser.cookie)).toMatchObject({ blocked: true });
  });

  it("the last unit raced by two carts: one order, one charge; the other buyer is told and not charged", async () => {
    const item = await product({ name: "Final Door", priceCents: 120000, stock: 1 });
    const a = await buyer({ id: item.id });
    const b = await buyer({ id: item.id });
    const before = await state();
    const outcomes = await Promise.all([run(htmlPost(a.cookie, fields())), run(htmlPost(b.cookie, fields()))]);
    expect(outcomes.map((o) => o.ok).sort()).toEqual([false, true]);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({
      status: 409,
      message: STOCK_MESSAGES.outOfStock("Final Door"),
    });
    expect(await state()).toEqual({
      ...before,
      payments: before.payments + 1,
      orders: before.orders + 1,
      lines: before.lines + 1,
      mail: before.mail + 2,
    });
    expect(await stockOf(item.id)).toBe(0);
  });

  it("one cart checked out from two windows at once: one order, one charge", async () => {
    const item = await product({ stock: 5 });
    const { cartId, cookie } = await buyer({ id: item.id });
    const before = await state();
    const outcomes = await Promise.all([run(htmlPost(cookie, fields())), run(htmlPost(cookie, fields()))]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(await state()).toMatchObject({
      payments: before.payments + 1,
      orders: before.orders + 1,
      holds: before.holds,
    });
    expect(await stockOf(item.id)).toBe(4);
    expect(await cartLines(cartId)).toBe(0);
  });

  it("one render posted twice at once with its one captcha answer (a double click without JavaScript): the post that finds the captcha spent waits for its twin's order and answers as its success", async () => {
    const item = await product({ stock: 5 });
    const { cookie } = await buyer({ id: item.id });
    const before = await state();
    const body = { ...fields(), ...honeypotFields(), ...sumAnswer(), submission_key: crypto.randomUUID() };
    const post = () => run(formPost("/checkout", toFormData(body), { Cookie: cookie }));
    const outcomes = await Promise.all([post(), post()]);
    expect(outcomes.map((o) => [o.ok, o.message])).toEqual([
      [true, expect.stringContaining(CHECKOUT_SUCCESS)],
      [true, expect.stringContaining(CHECKOUT_SUCCESS)],
    ]);
    const order = (await orderOf(body.email))!;
    expect(outcomes.map((o) => o.redirectTo).sort()).toEqual(
      [expect.stringMatching(/^\/order\/[A-Za-z0-9_-]{43}\?placed$/), paymentConfirmationPath(order.payment_id)].sort(),
    );
    expect(await state()).toMatchObject({ payments: before.payments + 1, orders: before.orders + 1 });
  });

  it("one render posted twice at once (a double click): one order, one charge, both answered as its success", async () => {
    const item = await product({ stock: 5 });
    const { cookie } = await buyer({ id: item.id });
    const before = await state();
    const key = crypto.randomUUID();
    const body = fields();
    const outcomes = await Promise.all([run(htmlPost(cookie, body, key)), run(htmlPost(cookie, body, key))]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    const order = (await orderOf(body.email))!;
    const [payment] = await rows(conn.db, `select state from payments where id = ${order.payment_id}`);
    expect(payment).toEqual({ state: "succeeded" });
    // The post that stored it goes to its order's page; its twin knows the payment, which the confirmation page turns into the order.
    expect(outcomes.map((o) => o.redirectTo).sort()).toEqual(
      [expect.stringMatching(/^\/order\/[A-Za-z0-9_-]{43}\?placed$/), paymentConfirmationPath(order.payment_id)].sort(),
    );
    expect(await state()).toMatchObject({
      payments: before.payments + 1,
      orders: before.orders + 1,
      holds: before.holds,
    });
    expect(await stockOf(item.id)).toBe(4);
  });

  it("a cart changed while the card is charged: the amount charged is the one held and stored; the added line stays in the cart", async () => {
    const item = await product({ priceCents: 2500, stock: 5 });
    const extra = await product({ priceCents: 99900, stock: 5 });
    const { cartId, cookie } = await buyer({ id: item.id });
    const payment = checkoutForm.payment!;
    // The visitor adds something in another tab between the hold and the charge.
    const racing = {
      ...checkoutForm,
      payment: {
        ...payment,
        async reserve(...args: Parameters<NonNullable<typeof payment.reserve>>) {
          const held = await payment.reserve!(...args);
          const added = await addToCart(conn.db, cartId, { inventory_id: extra.id }, null);
          expect(added.ok).toBe(true);
          return held;
        },
      },
    } as FormDefinition;
    const body = fields();
    const outcome = await run(htmlPost(cookie, body), racing);
    expect(outcome.ok).toBe(true);
    const order = (await orderOf(body.email))!;
    expect(order.total_cents).toBe(2500);
    const [charged] = await rows(conn.db, `select amount_cents from payments where id = ${order.payment_id}`);
    expect(charged).toEqual({ amount_cents: 2500 });
    expect(await rows(conn.db, `select product_id from order_lines where order_id = ${order.id}`)).toEqual([
      { product_id: item.id },
    ]);
    expect(await rows(conn.db, `select product_id from cart_items where cart_id = '${cartId}'`)).toEqual([
      { product_id: extra.id },
    ]);
    expect(await stockOf(extra.id)).toBe(5);
  });

  it("a line's quantity raised in another tab while the card is charged: the units held are ordered and leave the cart, the ones added stay", async () => {
    const item = await product({ priceCents: 2500, stock: 5 });
    const { cartId, cookie } = await buyer({ id: item.id }, { id: item.id });
    const payment = checkoutForm.payment!;
    const racing = {
      ...checkoutForm,
      payment: {
        ...payment,
        async reserve(...args: Parameters<NonNullable<typeof payment.reserve>>) {
          const held = await payment.reserve!(...args);
          expect((await addToCart(conn.db, cartId, { inventory_id: item.id }, null)).ok).toBe(true);
          return held;
        },
      },
    } as FormDefinition;
    const body = fields();
    expect(await run(htmlPost(cookie, body), racing)).toMatchObject({ ok: true });
    const order = (await orderOf(body.email))!;
    expect(order.total_cents).toBe(5000);
    expect(await rows(conn.db, `select quantity from order_lines where order_id = ${order.id}`)).toEqual([
      { quantity: 2 },
    ]);
    expect(await rows(conn.db, `select quantity from cart_items where cart_id = '${cartId}'`)).toEqual([
      { quantity: 1 },
    ]);
    expect(await stockOf(item.id)).toBe(3);
  });

  it("a posted total that is not the cart's (it changed after the page showed it, or is forged) refuses the order: nothing charged or held; the cart's own total then goes through on the same key", async () => {
    const item = await product({ priceCents: 3900, stock: 5 });
    const { cartId, cookie } = await buyer({ id: item.id });
    // Another tab adds a second line after the checkout page showed $39.00.
    expect((await addToCart(conn.db, cartId, { inventory_id: item.id }, null)).ok).toBe(true);
    const before = await state();
    const key = crypto.randomUUID();
    const body = fields({ total: "39.00" });
    const refused = await run(htmlPost(cookie, body, key));
    expect(refused).toMatchObject({ ok: false, status: 409, message: STOCK_MESSAGES.totalChanged("$78.00") });
    expect(await state()).toEqual(before);
    expect(await stockOf(item.id)).toBe(5);

    // A forged lower total is refused alike, never charged.
    const forged = await run(htmlPost(cookie, { ...body, total: "0.01" }, key));
    expect(forged).toMatchObject({ ok: false, status: 409, message: STOCK_MESSAGES.totalChanged("$78.00") });
    expect(await state()).toEqual(before);

    const placed = await run(htmlPost(cookie, { ...body, total: "78.00" }, key));
    expect(placed).toMatchObject({ ok: true });
    const order = (await orderOf(body.email))!;
    expect(order.total_cents).toBe(7800);
    expect(await rows(conn.db, `select amount_cents from payments where id = ${order.payment_id}`)).toEqual([
      { amount_cents: 7800 },
    ]);
  });

  it("a tripped honeypot (the trap filled, or sent within the minimum fill time) is not answered as an order placed: an error, the fields kept but the card's, nothing charged", async () => {
    const item = await product({ priceCents: 3900, stock: 5 });
    const { cookie } = await buyer({ id: item.id });
    const before = await state();
    const body = fields({ total: "39.00" });
    const quick = formPost(
      "/checkout",
      toFormData({ ...body, ...honeypotFields(300), ...sumAnswer(), submission_key: crypto.randomUUID() }),
      { Cookie: cookie },
    );
    const outcome = await run(quick);
    expect(outcome).toMatchObject({ ok: false, status: 400, message: "An error occurred. Please try again." });
    const kept = outcome.reply?.initialValue as Record<string, unknown>;
    expect(kept).toMatchObject({ name: body.name, email: body.email });
    expect(kept).not.toHaveProperty("cardNumber");
    expect(kept).not.toHaveProperty("cvv");
    expect(await state()).toEqual(before);
  });

  it("POST /api/store/checkout answers { success, message, order_id (its reference), total } on the same cookie cart", async () => {
    const item = await product({ priceCents: 12345, stock: 2 });
    const { cookie } = await buyer({ id: item.id });
    const body = { ...fields({ total: "123.45" }), recaptcha_token: await altchaToken() };
    const response = await apiFormAction(
      checkoutForm,
      { request: formPost("/api/store/checkout", body, { Origin: "", "Sec-Fetch-Site": "", Cookie: cookie }) },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(response.status).toBe(200);
    const json = (await response.json()) as Record<string, unknown>;
    const order = (await orderOf(body.email))!;
    expect(json).toEqual({
      success: true,
      message: expect.stringContaining("$123.45 charged"),
      order_id: order.reference,
      total: 123.45,
    });

    const empty = await apiFormAction(
      checkoutForm,
      {
        request: formPost(
          "/api/store/checkout",
          { ...body, recaptcha_token: await altchaToken() },
          { Origin: "", "Sec-Fetch-Site": "", Cookie: cookie },
        ),
      },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ success: false, message: EMPTY_CART_MESSAGE });
  });

  it("an installation address outside the service area (DECISIONS 36, 30) is refused before any charge, beside the ZIP that was read, on the page and the API; nothing held or stored", async () => {
    const item = await product({ stock: 2 });
    const { cartId, cookie } = await buyer({ id: item.id });
    const before = await state();
    const traverse = await coverageOf("49684");
    if (traverse.status !== "outside") throw new Error("49684 should be outside every circle");
    const refusal = outsideInstallationMessage("49684", traverse.nearest);
    expect(refusal).toMatch(/^We don't install shop orders at ZIP 49684: .* Call us at \(\d{3}\) 555-01\d\d /);

    // Installing at the billing address (the box checked): the billing ZIP is read.
    const billing = await run(
      htmlPost(cookie, fields({ zip: "49684", installAsked: "1", installSameAsBilling: "on" })),
    );
    expect(billing).toMatchObject({ ok: false, status: 400, message: refusal, fieldErrors: { zip: [refusal] } });
    expect((billing.reply?.initialValue as Record<string, unknown>).zip).toBe("49684");

    // Another address: its ZIP is read (the billing one, in Flint, does not save it).
    const other = await run(
      htmlPost(
        cookie,
        fields({
          installAsked: "1",
          installAddress: "12 Front St",
          installCity: "Traverse City",
          installState: "MI",
          installZip: "49684",
        }),
      ),
    );
    expect(other).toMatchObject({ ok: false, status: 400, message: refusal, fieldErrors: { installZip: [refusal] } });
    expect(other.fieldErrors.zip).toBeUndefined();
    expect(other.notice).toBeUndefined();

    // The API: the same words, a 4xx.
    const api = await apiFormAction(
      checkoutForm,
      {
        request: formPost(
          "/api/store/checkout",
          { ...fields({ zip: "49684", total: "39.00" }), recaptcha_token: await altchaToken() },
          { Origin: "", "Sec-Fetch-Site": "", Cookie: cookie },
        ),
      },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(api.status).toBe(400);
    // SPEC §7's refusal, and the field it is about (as every API refusal of a field names it).
    expect(await api.json()).toEqual({ success: false, message: refusal, errors: { zip: [refusal] } });

    expect(await state()).toEqual(before);
    expect(await cartLines(cartId)).toBe(1);
    expect(await stockOf(item.id)).toBe(2);

    // Installing in Flint from a Traverse City billing address goes through.
    const inside = await run(
      htmlPost(
        cookie,
        fields({
          zip: "49684",
          city: "Traverse City",
          installAsked: "1",
          installAddress: "4 Mill Rd",
          installCity: "Flint",
          installState: "MI",
          installZip: "48503",
        }),
      ),
    );
    expect(inside).toMatchObject({ ok: true });
    expect(await state()).toMatchObject({ payments: before.payments + 1, orders: before.orders + 1 });
  });

  it("POST /api/store/checkout sent again with its submission_key (a retry after a lost answer) answers the same order_id and total, charging nothing more", async () => {
    const item = await product({ priceCents: 4550, stock: 2 });
    const { cookie } = await buyer({ id: item.id });
    const key = crypto.randomUUID();
    const post = async () =>
      apiFormAction(
        checkoutForm,
        {
          request: formPost(
            "/api/store/checkout",
            { ...fields({ email: "retry@example.com" }), submission_key: key, recaptcha_token: await altchaToken() },
            { Origin: "", "Sec-Fetch-Site": "", Cookie: cookie },
          ),
        },
        { db: conn.db, clientIp: nextIp() },
      );
    const first = (await (await post()).json()) as Record<string, unknown>;
    const before = await state();
    const again = (await (await post()).json()) as Record<string, unknown>;
    const order = (await orderOf("retry@example.com"))!;
    expect(first).toMatchObject({ success: true, order_id: order.reference, total: 45.5 });
    expect(again).toMatchObject({ success: true, order_id: order.reference, total: 45.5 });
    expect(await state()).toEqual(before);
  });

  it("no card number or CVV reached a log line or a stored row", async () => {
    expect(secretsIn(logs.lines.join("\n"))).toEqual([]);
    const dump =
      JSON.stringify(await rows(conn.db, "select * from orders")) +
      JSON.stringify(await rows(conn.db, "select * from payments"));
    expect(secretsIn(dump)).toEqual([]);
  });
});
