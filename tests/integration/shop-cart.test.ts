import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { cartItems, carts, categories, products } from "@db/schema";
import { CART_BLOCKED_MESSAGE, CART_LINE_PROBLEMS, CART_MESSAGES, onlyLeft, QUANTITY_MAX } from "~/shop/cart-schema";
import { CART_ADD_MESSAGES, cartCookieHeader, MAX_CART_ITEMS, pruneCarts, readCart } from "~/shop/cart.server";
import { cartAdd, cartApi, cartCount, cartDelete, cartGet, cartUpdate } from "~/shop/cart-api.server";
import { cartPageData } from "~/shop/CartView";
import { UNKNOWN_CART_INTENT_MESSAGE } from "~/shop/cart-page.server";
import { env } from "~/lib/env.server";
import { action as cartPageAction, loader as cartPageLoader } from "~/routes/my-cart";
import { createTestDatabase } from "../support/db";
import { routesUse } from "./shop-support";

/**
 * The cookie cart on the real database (issue 17 item 4 and the SPEC §7 cart
 * calls): lines priced from the catalogue whatever the client posts, refused
 * products and options, one cart per cookie, delete only from one's own cart,
 * and the answers' shapes. The catalogue is this file's own, not the seed.
 */
let conn: Connection;
let opener: number;
let remote: number;
let soldOut: number;
let category: number;

beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
  routesUse(conn);
  const [cat] = await conn.db.insert(categories).values({ name: "Cart test" }).returning();
  category = cat!.id;
  const rows = await conn.db
    .insert(products)
    .values([
      {
        name: "Test Opener",
        priceCents: 54900,
        image: "/images/test/opener.svg",
        categoryId: cat!.id,
        description: "A quiet opener.",
        stock: 7,
        customFields: [
          {
            name: "Horsepower",
            options: [
              { label: "1/2 HP", price: 0 },
              { label: "3/4 HP", price: 60 },
            ],
          },
          {
            name: "Wi-Fi Module",
            options: [
              { label: "None", price: 0 },
              { label: "Smartphone control", price: 45.5 },
            ],
          },
        ],
      },
      {
        name: "Test Remote",
        priceCents: 3900,
        image: "/images/test/remote.svg",
        categoryId: cat!.id,
        description: "",
        stock: 3,
        customFields: [],
      },
      {
        name: "Test Sold Out",
        priceCents: 1000,
        image: "/images/test/x.svg",
        categoryId: cat!.id,
        description: "",
        stock: 0,
        customFields: [],
      },
    ])
    .returning();
  [opener, remote, soldOut] = rows.map((r) => r.id) as [number, number, number];
});
afterAll(async () => {
  await conn?.close();
});

const BASE = "http://localhost:3000";

function post(path: string, body: unknown, cookie?: string, type = "application/json") {
  const headers: Record<string, string> = { "Content-Type": type };
  if (cookie) headers.Cookie = cookie;
  return new Request(`${BASE}${path}`, {
    method: "POST",
    headers,
    body: type === "application/json" ? JSON.stringify(body) : (body as string),
  });
}

let visitors = 0;
type CartJson = { cartItems: Record<string, unknown>[]; total: number };
/** A visitor: their own address, and a cookie jar holding the one cart cookie the server set. */
function visitor() {
  let cookie: string | undefined;
  const as = { db: conn.db, clientIp: `198.51.100.${++visitors}` };
  const keep = (res: Response) => {
    const set = res.headers.get("Set-Cookie");
    if (set) cookie = set.split(";")[0];
    return res;
  };
  const get = async () => {
    const res = await cartApi(
      new Request(`${BASE}/api/store/cart/get`, { headers: cookie ? { Cookie: cookie } : {} }),
      cartGet,
      as,
    );
    return { res, body: (await res.json()) as CartJson };
  };
  return {
    get cookie() {
      return cookie;
    },
    add: async (body: unknown, type?: string) =>
      keep(await cartApi(post("/api/store/cart/add", body, cookie, type), cartAdd, as)),
    update: async (body: unknown, type?: string) =>
      cartApi(post("/api/store/cart/update", body, cookie, type), cartUpdate, as),
    remove: async (body: unknown) => cartApi(post("/api/store/cart/delete", body, cookie), cartDelete, as),
    get,
    /** The cart behind the cookie, as the pages read it (/my-cart's data, the checkout's cart). */
    cartId: async () => {
      const { body } = await get();
      const [row] = await conn.db
        .select({ cartId: cartItems.cartId })
        .from(cartItems)
        .where(eq(cartItems.id, body.cartItems[0]!.id as string));
      return row!.cartId;
    },
  };
}

const countItems = async () => (await conn.db.select().from(cartItems)).length;

describe("adding to the cart", () => {
  it("prices the line from the catalogue: a forged final_price and base_price are ignored", async () => {
    const v = visitor();
    const res = await v.add({
      inventory_id: opener,
      name: "Free opener",
      base_price: 0.01,
      final_price: 0.01,
      selectedOptions: { Horsepower: "3/4 HP", "Wi-Fi Module": "Smartphone control" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const setCookie = res.headers.get("Set-Cookie")!;
    expect(setCookie).toMatch(/^cart=/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const body = (await res.json()) as { success: boolean; message: string; cartItem: Record<string, unknown> };
    expect(body.success).toBe(true);
    expect(body.message).toBe(CART_ADD_MESSAGES.added);
    expect(body.cartItem.final_price).toBe(654.5); // 549 + 60 + 45.50

    const { body: cart } = await v.get();
    expect(cart.cartItems).toEqual([
      {
        id: body.cartItem.id,
        inventory_id: opener,
        name: "Test Opener",
        final_price: 654.5,
        description: "A quiet opener.",
        stock: 7,
        selectedOptions: { Horsepower: "3/4 HP", "Wi-Fi Module": "Smartphone control" },
        image: "/images/test/opener.svg",
        quantity: 1,
        problem: null,
      },
    ]);
    expect(cart.total).toBe(654.5);

    // What is stored: the product and the labels, no price at all.
    const [row] = await conn.db
      .select()
      .from(cartItems)
      .where(eq(cartItems.id, body.cartItem.id as string));
    expect(row).toMatchObject({
      productId: opener,
      selectedOptions: { Horsepower: "3/4 HP", "Wi-Fi Module": "Smartphone control" },
    });
    expect(Object.keys(row!)).not.toContain("finalPrice");
  });

  it("takes the product page's form (selectedOptions.<field>) through the same schema; a field left out takes its first option", async () => {
    const v = visitor();
    const form = new URLSearchParams({
      intent: "add",
      inventory_id: String(opener),
      "selectedOptions.Horsepower": "3/4 HP",
    });
    const res = await v.add(form.toString(), "application/x-www-form-urlencoded");
    expect(res.status).toBe(200);
    const { body } = await v.get();
    expect(body.cartItems).toHaveLength(1);
    expect(body.cartItems[0]).toMatchObject({
      final_price: 609,
      selectedOptions: { Horsepower: "3/4 HP", "Wi-Fi Module": "None" },
    });
  });

  it("refuses an unknown option, an unknown field, an unknown or malformed product and a sold-out one, storing nothing and setting no cookie", async () => {
    const before = await countItems();
    const cartsBefore = (await conn.db.select().from(carts)).length;
    const cases: [unknown, number, string | RegExp][] = [
      [{ inventory_id: opener, selectedOptions: { Horsepower: "9 HP" } }, 400, /Horsepower/],
      [{ inventory_id: opener, selectedOptions: { Colour: "Red" } }, 400, /Colour/],
      [{ inventory_id: 999999, final_price: 1 }, 404, CART_ADD_MESSAGES.unknownProduct],
      [{ inventory_id: "abc" }, 400, CART_MESSAGES.product],
      [{ inventory_id: -3 }, 400, CART_MESSAGES.product],
      [{ inventory_id: 1e20 }, 400, CART_MESSAGES.product],
      [{ inventory_id: true }, 400, CART_MESSAGES.product],
      [{ inventory_id: opener, selectedOptions: "3/4 HP" }, 400, CART_MESSAGES.options],
      [{ inventory_id: opener, selectedOptions: { Horsepower: 3 } }, 400, CART_MESSAGES.options],
      [{}, 400, CART_MESSAGES.product],
      [{ inventory_id: soldOut }, 409, CART_ADD_MESSAGES.outOfStock],
    ];
    for (const [body, status, message] of cases) {
      const v = visitor();
      const res = await v.add(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers.get("Set-Cookie")).toBeNull();
      const json = (await res.json()) as { success: boolean; message: string };
      expect(json.success).toBe(false);
      if (typeof message === "string") expect(json.message).toBe(message);
      else expect(json.message).toMatch(message);
    }
    expect(await countItems()).toBe(before);
    expect((await conn.db.select().from(carts)).length).toBe(cartsBefore);
  });

  it("answers a body it cannot read with a 4xx and a message, never a 500", async () => {
    const v = visitor();
    const bad: [string, string][] = [
      ['{"inventory_id": ', "application/json"],
      ["[1,2]", "application/json"],
      ['{"a":{"b":{"c":{"d":{"e":1}}}}}', "application/json"],
      [`{"inventory_id": 1, "x": "${"y".repeat(20_000)}"}`, "application/json"],
      ["<a/>", "application/xml"],
    ];
    for (const [text, type] of bad) {
      const res = await cartApi(
        new Request(`${BASE}/api/store/cart/add`, { method: "POST", headers: { "Content-Type": type }, body: text }),
        cartAdd,
        { db: conn.db },
      );
      expect(res.status, text.slice(0, 30)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(((await res.json()) as { success: boolean }).success).toBe(false);
    }
    expect(v.cookie).toBeUndefined();
  });

  it("a second add goes to the same cart; a cart holds at most MAX_CART_ITEMS lines", async () => {
    const v = visitor();
    await v.add({ inventory_id: remote });
    const first = v.cookie;
    const res = await v.add({ inventory_id: opener });
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(v.cookie).toBe(first);
    expect((await v.get()).body.cartItems).toHaveLength(2);

    // Lines are products (or options) told apart: MAX_CART_ITEMS of them, then the cart is full.
    const many = await conn.db
      .insert(products)
      .values(
        Array.from({ length: MAX_CART_ITEMS }, (_, i) => ({
          name: `Filler ${i}`,
          priceCents: 100,
          image: "/images/test/x.svg",
          categoryId: category,
          stock: 1,
        })),
      )
      .returning({ id: products.id });
    for (const { id } of many.slice(0, MAX_CART_ITEMS - 2))
      expect((await v.add({ inventory_id: id })).status).toBe(200);
    const full = await v.add({ inventory_id: many.at(-1)!.id });
    expect(full.status).toBe(409);
    expect(((await full.json()) as { message: string }).message).toBe(CART_ADD_MESSAGES.full);
    // A line already there still takes another unit (the stock allowing).
    expect((await v.add({ inventory_id: remote })).status).toBe(200);
    await conn.db.delete(products).where(
      inArray(
        products.id,
        many.map((p) => p.id),
      ),
    );
  });

  it("an address makes at most CART_NEW_MAX carts per window: then 429 and no new row; a cart it has still takes adds", async () => {
    const e = env();
    const saved = e.CART_NEW_MAX;
    e.CART_NEW_MAX = 2;
    try {
      const address = "192.0.2.77";
      const as = { db: conn.db, clientIp: address };
      const addWithoutCookie = () => cartApi(post("/api/store/cart/add", { inventory_id: remote }), cartAdd, as);
      const kept = await addWithoutCookie();
      expect(kept.status).toBe(200);
      expect((await addWithoutCookie()).status).toBe(200);
      const cartsBefore = (await conn.db.select().from(carts)).length;
      const refused = await addWithoutCookie();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ success: false, message: CART_ADD_MESSAGES.tooManyCarts });
      expect(refused.headers.get("Set-Cookie")).toBeNull();
      expect((await conn.db.select().from(carts)).length).toBe(cartsBefore);
      // A signed cookie whose cart is gone makes a new cart: it counts like no cookie.
      const orphan = (await cartCookieHeader(crypto.randomUUID())).split(";")[0];
      expect((await cartApi(post("/api/store/cart/add", { inventory_id: remote }, orphan), cartAdd, as)).status).toBe(
        429,
      );
      // An add refused for what it asks (a sold-out product) makes no cart and takes nothing from the budget.
      const other = { ...as, clientIp: "192.0.2.79" };
      e.CART_NEW_MAX = 1;
      expect((await cartApi(post("/api/store/cart/add", { inventory_id: soldOut }), cartAdd, other)).status).toBe(409);
      expect((await cartApi(post("/api/store/cart/add", { inventory_id: remote }), cartAdd, other)).status).toBe(200);
      e.CART_NEW_MAX = 2;
      // The visitor holding a cart (its cookie) is not one of the carts being made.
      const cookie = kept.headers.get("Set-Cookie")!.split(";")[0];
      expect((await cartApi(post("/api/store/cart/add", { inventory_id: remote }, cookie), cartAdd, as)).status).toBe(
        200,
      );
      // Another address is another visitor.
      expect(
        (
          await cartApi(post("/api/store/cart/add", { inventory_id: remote }), cartAdd, {
            ...as,
            clientIp: "192.0.2.78",
          })
        ).status,
      ).toBe(200);
    } finally {
      e.CART_NEW_MAX = saved;
    }
  });
});

describe("pruning carts", () => {
  it("deletes the carts (and their lines) whose 90-day cookie expired over a day ago; younger carts stay", async () => {
    const [old, young] = await conn.db
      .insert(carts)
      .values([
        { createdAt: new Date(Date.now() - 92 * 86_400_000) },
        { createdAt: new Date(Date.now() - 90 * 86_400_000) },
      ])
      .returning({ id: carts.id });
    await conn.db.insert(cartItems).values([
      { cartId: old!.id, productId: remote },
      { cartId: young!.id, productId: remote },
    ]);
    await pruneCarts(conn.db);
    const left = (await conn.db.select({ id: carts.id }).from(carts)).map((c) => c.id);
    expect(left).toContain(young!.id);
    expect(left).not.toContain(old!.id);
    expect(await conn.db.select().from(cartItems).where(eq(cartItems.cartId, old!.id))).toEqual([]);
    expect(await conn.db.select().from(cartItems).where(eq(cartItems.cartId, young!.id))).toHaveLength(1);
  });
});

describe("reading the cart", () => {
  it("without a cookie: an empty list and no cookie set (a mere visitor gets none)", async () => {
    const { res, body } = await visitor().get();
    expect(res.status).toBe(200);
    expect(body).toEqual({ cartItems: [], total: 0 });
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("a forged or tampered cookie reads as no cart", async () => {
    const v = visitor();
    await v.add({ inventory_id: remote });
    const [name, value] = v.cookie!.split("=") as [string, string];
    const tampered = `${name}=${Buffer.from(JSON.stringify(crypto.randomUUID())).toString("base64")}${value.slice(value.indexOf("."))}`;
    const res = await cartApi(new Request(`${BASE}/api/store/cart/get`, { headers: { Cookie: tampered } }), cartGet, {
      db: conn.db,
    });
    expect(await res.json()).toEqual({ cartItems: [], total: 0 });
  });

  it("prices every read from the catalogue as it is now; a line whose option is no longer offered has no price and leaves the total", async () => {
    const v = visitor();
    await v.add({ inventory_id: remote });
    await v.add({ inventory_id: opener, selectedOptions: { Horsepower: "3/4 HP" } });
    expect((await v.get()).body.total).toBe(39 + 609);

    await conn.db.update(products).set({ priceCents: 4500 }).where(eq(products.id, remote));
    expect((await v.get()).body.cartItems[0]!.final_price).toBe(45);

    const [product] = await conn.db.select().from(products).where(eq(products.id, opener));
    await conn.db
      .update(products)
      .set({
        customFields: [{ name: "Horsepower", options: [{ label: "1/2 HP", price: 0 }] }, product!.customFields[1]!],
      })
      .where(eq(products.id, opener));
    try {
      const { body } = await v.get();
      expect(body.cartItems[1]).toMatchObject({
        name: "Test Opener",
        final_price: null,
        selectedOptions: { Horsepower: "3/4 HP" },
        problem: CART_LINE_PROBLEMS.withdrawn,
      });
      expect(body.total).toBe(45);
      // The page says the same, offers no quantity for it and keeps the checkout closed.
      const page = cartPageData(await readCart(conn.db, await v.cartId()), null);
      expect(page).toMatchObject({ total: "$45.00", blocked: true });
      expect(page.items[1]).toMatchObject({ price: null, choices: [], problem: CART_LINE_PROBLEMS.withdrawn });
    } finally {
      await conn.db.update(products).set({ priceCents: 3900 }).where(eq(products.id, remote));
      await conn.db.update(products).set({ customFields: product!.customFields }).where(eq(products.id, opener));
    }
  });
});

/** A product of this file's category; `Glass` is an option field when `withOptions`. */
async function stocked(stock: number, priceCents = 1000, withOptions = false) {
  const [row] = await conn.db
    .insert(products)
    .values({
      name: `Door ${crypto.randomUUID().slice(0, 6)}`,
      priceCents,
      image: "/images/test/door.svg",
      categoryId: category,
      stock,
      customFields: withOptions
        ? [
            {
              name: "Glass",
              options: [
                { label: "Clear", price: 0 },
                { label: "Frosted", price: 50 },
              ],
            },
          ]
        : [],
    })
    .returning();
  return row!;
}

type ItemJson = { id: string; quantity: number; problem: string | null; final_price: number | null; stock: number };
const json = async (res: Response) =>
  (await res.json()) as { success: boolean; message: string; cartItem?: ItemJson; cartItems?: ItemJson[] };
const setStock = (id: number, stock: number) => conn.db.update(products).set({ stock }).where(eq(products.id, id));
const quantityOf = async (itemId: string) =>
  (await conn.db.select({ q: cartItems.quantity }).from(cartItems).where(eq(cartItems.id, itemId)))[0]?.q;

describe("quantities and stock (DECISIONS 34)", () => {
  it("the same product with the same options is one line whose quantity goes up; other options make another line", async () => {
    const door = await stocked(5, 64900, true);
    const v = visitor();
    const first = await json(await v.add({ inventory_id: door.id }));
    expect(first.cartItem).toMatchObject({ quantity: 1, problem: null });
    // The first option named (it is the one taken when none is) is the same line.
    const again = await json(await v.add({ inventory_id: door.id, selectedOptions: { Glass: "Clear" } }));
    expect(again).toMatchObject({ success: true, cartItem: { id: first.cartItem!.id, quantity: 2 } });
    // The product page's form, another option: a line of its own.
    const form = new URLSearchParams({
      intent: "add",
      inventory_id: String(door.id),
      "selectedOptions.Glass": "Frosted",
    });
    const frosted = await json(await v.add(form.toString(), "application/x-www-form-urlencoded"));
    expect(frosted.cartItem).toMatchObject({ quantity: 1 });
    expect(frosted.cartItem!.id).not.toBe(first.cartItem!.id);

    const { body } = await v.get();
    expect(body.cartItems.map((i) => [i.selectedOptions, i.quantity, i.final_price])).toEqual([
      [{ Glass: "Clear" }, 2, 649],
      [{ Glass: "Frosted" }, 1, 699],
    ]);
    expect(body.total).toBe(2 * 649 + 699);
    expect(await conn.db.select().from(cartItems).where(eq(cartItems.productId, door.id))).toHaveLength(2);
    // The page shows the line's units and their price (computed on the server) and offers what the stock leaves.
    const page = cartPageData(await readCart(conn.db, await v.cartId()), null);
    expect(page.total).toBe("$1,997.00");
    expect(page.items[0]).toMatchObject({ quantity: 2, price: "$649.00", lineTotal: "$1,298.00" });
    expect(page.items[0]!.choices).toEqual([1, 2, 3, 4]); // 5 in stock, 1 of them in the other line
    expect(page.items[1]).toMatchObject({ quantity: 1, lineTotal: null, choices: [1, 2, 3] });
  });

  it("an add beyond the stock is refused at once with 'Only N left in stock.', the product's lines counted together", async () => {
    // The door: 5 in stock, added six times.
    const door = await stocked(5);
    const v = visitor();
    for (let i = 1; i <= 5; i++)
      expect((await json(await v.add({ inventory_id: door.id }))).cartItem!.quantity).toBe(i);
    const sixth = await v.add({ inventory_id: door.id });
    expect(sixth.status).toBe(409);
    const refused = await json(sixth);
    expect(refused).toMatchObject({ success: false, message: onlyLeft(5), cartItem: { quantity: 5, problem: null } });
    expect(refused.message).toBe("Only 5 left in stock.");
    const { body } = await v.get();
    expect(body.cartItems).toHaveLength(1);
    expect(body.cartItems[0]).toMatchObject({ quantity: 5, stock: 5 });
    expect(body.total).toBe(50);

    // Two lines of one product (two options) share its stock.
    const window = await stocked(3, 1000, true);
    const w = visitor();
    await w.add({ inventory_id: window.id });
    await w.add({ inventory_id: window.id });
    await w.add({ inventory_id: window.id, selectedOptions: { Glass: "Frosted" } });
    for (const options of [{}, { Glass: "Frosted" }]) {
      const res = await w.add({ inventory_id: window.id, selectedOptions: options });
      expect(res.status).toBe(409);
      expect((await json(res)).message).toBe(onlyLeft(3));
    }
    expect((await w.get()).body.cartItems.map((i) => i.quantity)).toEqual([2, 1]);
  });

  it("the product page's Quantity adds that many units at once, through the page's form and the JSON call alike; more than the stock leaves is refused whole", async () => {
    const door = await stocked(5);
    const v = visitor();
    const form = (quantity: string) =>
      new URLSearchParams({ intent: "add", inventory_id: String(door.id), quantity }).toString();
    const first = await v.add(form("3"), "application/x-www-form-urlencoded");
    expect(first.status).toBe(200);
    expect((await json(first)).cartItem).toMatchObject({ quantity: 3 });
    // Three more of five: refused whole, nothing added (the line keeps its three).
    const beyond = await v.add({ inventory_id: door.id, quantity: 3 });
    expect(beyond.status).toBe(409);
    expect(await json(beyond)).toMatchObject({ success: false, message: onlyLeft(5), cartItem: { quantity: 3 } });
    expect((await json(await v.add({ inventory_id: door.id, quantity: 2 }))).cartItem).toMatchObject({ quantity: 5 });
    expect((await v.get()).body.cartItems.map((i) => i.quantity)).toEqual([5]);
    // A new line beyond the stock is not made at all.
    const w = visitor();
    expect((await w.add({ inventory_id: door.id, quantity: 6 })).status).toBe(409);
    expect(w.cookie).toBeUndefined();
    // A quantity that is not 1 to QUANTITY_MAX is the schema's 400, as the cart page's select.
    for (const quantity of ["0", "-2", "1.5", "abc", String(QUANTITY_MAX + 1)]) {
      const res = await w.add(form(quantity), "application/x-www-form-urlencoded");
      expect(res.status, quantity).toBe(400);
      expect((await json(res)).message, quantity).toBe(CART_MESSAGES.quantity);
    }
  });

  it("the header's count is the cart's units over all its lines, 0 without a cart (GET /api/store/cart/count)", async () => {
    const count = async (cookie?: string) => {
      const res = await cartApi(
        new Request(`${BASE}/api/store/cart/count`, { headers: cookie ? { Cookie: cookie } : {} }),
        cartCount,
        { db: conn.db },
      );
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      return ((await res.json()) as { count: number }).count;
    };
    expect(await count()).toBe(0);
    expect(await count("cart=forged")).toBe(0);
    const door = await stocked(9);
    const window = await stocked(4, 1000, true);
    const v = visitor();
    await v.add({ inventory_id: door.id, quantity: 2 });
    await v.add({ inventory_id: window.id });
    await v.add({ inventory_id: window.id, selectedOptions: { Glass: "Frosted" }, quantity: 3 });
    expect(await count(v.cookie)).toBe(6);
  });

  it("a stock that fell below a line: the line says 'Only N left in stock', leaves the total and closes the checkout; the next add brings it down to the stock", async () => {
    const door = await stocked(5, 1000);
    const remote = await stocked(5, 500);
    const v = visitor();
    for (let i = 0; i < 4; i++) await v.add({ inventory_id: door.id });
    await v.add({ inventory_id: remote.id });
    await setStock(door.id, 2);

    const { body } = await v.get();
    expect(body.cartItems[0]).toMatchObject({ quantity: 4, stock: 2, problem: CART_LINE_PROBLEMS.short(2) });
    expect(body.cartItems[0]!.problem).toBe("Only 2 left in stock. Lower the quantity to check out.");
    expect(body.total).toBe(5);
    const page = cartPageData(await readCart(conn.db, await v.cartId()), null);
    expect(page).toMatchObject({ blocked: true, total: "$5.00" });
    // The select still shows the line's 4, and offers the 2 left.
    expect(page.items[0]!.choices).toEqual([1, 2, 3, 4]);

    const add = await v.add({ inventory_id: door.id });
    expect(add.status).toBe(409);
    expect(await json(add)).toMatchObject({ message: onlyLeft(2), cartItem: { quantity: 2, problem: null } });
    expect((await v.get()).body.total).toBe(25);
    expect(cartPageData(await readCart(conn.db, await v.cartId()), null).blocked).toBe(false);
  });

  it("a line out of stock (another buyer took the last one) says so, leaves the total and closes the checkout until it is removed", async () => {
    // The bay window: $3,450, the last one sold to someone else.
    const bay = await stocked(1, 345000);
    const remote = await stocked(3, 3900);
    const v = visitor();
    const line = (await json(await v.add({ inventory_id: bay.id }))).cartItem!;
    await v.add({ inventory_id: remote.id });
    expect((await v.get()).body.total).toBe(3489);
    await setStock(bay.id, 0);

    const { body } = await v.get();
    expect(body.cartItems[0]).toMatchObject({
      id: line.id,
      final_price: 3450,
      stock: 0,
      quantity: 1,
      problem: CART_LINE_PROBLEMS.outOfStock,
    });
    expect(body.cartItems[1]!.problem).toBeNull();
    expect(body.total).toBe(39);
    const page = cartPageData(await readCart(conn.db, await v.cartId()), null);
    expect(page).toMatchObject({ blocked: true, total: "$39.00" });
    expect(page.items[0]).toMatchObject({
      choices: [],
      problem: "Out of stock. Remove it from your cart to check out.",
    });
    expect(CART_BLOCKED_MESSAGE).toContain("not counted in the total");

    // It cannot be raised or added again; removed, the cart can go to the checkout.
    const update = await v.update({ cart_id: line.id, quantity: 1 });
    expect(update.status).toBe(409);
    expect((await json(update)).message).toBe(CART_ADD_MESSAGES.outOfStock);
    expect((await v.add({ inventory_id: bay.id })).status).toBe(409);
    expect(await quantityOf(line.id)).toBe(1);
    expect((await v.remove({ cart_id: line.id })).status).toBe(200);
    expect(cartPageData(await readCart(conn.db, await v.cartId()), null)).toMatchObject({
      blocked: false,
      total: "$39.00",
    });
  });

  it("a line's quantity is set by the page's form or JSON; beyond the stock it is refused with 'Only N left in stock.' and set to what is left", async () => {
    const door = await stocked(4, 1000, true);
    const v = visitor();
    const line = (await json(await v.add({ inventory_id: door.id }))).cartItem!;
    const set = await v.update({ cart_id: line.id, quantity: 3 });
    expect(set.status).toBe(200);
    expect(set.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await json(set)).toMatchObject({
      success: true,
      message: CART_ADD_MESSAGES.updated,
      cartItem: { id: line.id, quantity: 3 },
    });
    const form = new URLSearchParams({ intent: "update", cart_id: line.id, quantity: "2" }).toString();
    expect((await v.update(form, "application/x-www-form-urlencoded")).status).toBe(200);
    expect(await quantityOf(line.id)).toBe(2);
    expect((await v.get()).body.total).toBe(20);

    const beyond = await v.update({ cart_id: line.id, quantity: 9 });
    expect(beyond.status).toBe(409);
    expect(await json(beyond)).toMatchObject({ success: false, message: onlyLeft(4), cartItem: { quantity: 4 } });
    expect(await quantityOf(line.id)).toBe(4);

    // The product's other line (another option) takes from the same stock.
    await v.update({ cart_id: line.id, quantity: 2 });
    const frosted = (await json(await v.add({ inventory_id: door.id, selectedOptions: { Glass: "Frosted" } })))
      .cartItem!;
    const other = await v.update({ cart_id: frosted.id, quantity: 5 });
    expect(other.status).toBe(409);
    expect(await json(other)).toMatchObject({ message: onlyLeft(4), cartItem: { quantity: 2 } });
    expect((await v.get()).body.cartItems.map((i) => i.quantity)).toEqual([2, 2]);
  });

  it("the page (/my-cart): its Update form sets the quantity with a redirect back; beyond the stock the page answers 'Only N left in stock' in that line; a line out of stock leaves the total and closes the checkout", async () => {
    const door = await stocked(5, 64900);
    const bay = await stocked(1, 345000);
    const v = visitor();
    const line = (await json(await v.add({ inventory_id: door.id }))).cartItem!;
    await v.add({ inventory_id: bay.id });
    const page = (body: Record<string, string>) =>
      cartPageAction({
        request: post("/my-cart", new URLSearchParams(body).toString(), v.cookie, "application/x-www-form-urlencoded"),
      } as Parameters<typeof cartPageAction>[0]);
    const read = async () =>
      cartPageLoader({
        request: new Request(`${BASE}/my-cart`, { headers: { Cookie: v.cookie! } }),
      } as Parameters<typeof cartPageLoader>[0]);

    const updated = await page({ intent: "update", cart_id: line.id, quantity: "2" });
    expect(updated).toBeInstanceOf(Response);
    expect((updated as Response).status).toBe(303);
    expect((updated as Response).headers.get("Location")).toBe("/my-cart");
    expect(await read()).toMatchObject({ total: "$4,748.00", blocked: false });

    // Beyond the stock: refused in that line, and set to the stock.
    const beyond = await page({ intent: "update", cart_id: line.id, quantity: "7" });
    expect(beyond).toMatchObject({ data: { error: "Only 5 left in stock.", line: line.id }, init: { status: 409 } });
    // The product page's 'Add to Cart' once more: refused at once, in that line.
    const add = await page({ intent: "add", inventory_id: String(door.id) });
    expect(add).toMatchObject({
      data: { error: "We could not add that to your cart. Only 5 left in stock.", line: line.id },
      init: { status: 409 },
    });
    // A forged quantity: refused with the form's message, nothing changed.
    for (const quantity of ["-1", "0", "1000000000", "abc"])
      expect(await page({ intent: "update", cart_id: line.id, quantity })).toMatchObject({
        data: { error: CART_MESSAGES.quantity },
        init: { status: 400 },
      });
    // An intent that is not the cart's, or none (issue 37 item 5): refused, never taken for "add".
    for (const intent of [null, "", "remove", "ADD"]) {
      const body: Record<string, string> = { inventory_id: String(door.id), cart_id: line.id, quantity: "1" };
      if (intent !== null) body.intent = intent;
      expect(await page(body)).toMatchObject({ data: { error: UNKNOWN_CART_INTENT_MESSAGE }, init: { status: 400 } });
    }
    expect(await quantityOf(line.id)).toBe(5);

    // Another buyer takes the last bay window: it leaves the total; Proceed to Checkout is off.
    await setStock(bay.id, 0);
    const blocked = await read();
    expect(blocked).toMatchObject({ total: "$3,245.00", blocked: true });
    expect(blocked.items.map((i) => i.problem)).toEqual([null, CART_LINE_PROBLEMS.outOfStock]);
  });

  it("a forged quantity (-1, 0, 10^9, 'abc', …) or line is refused cleanly with a 4xx, never a 500, and changes nothing", async () => {
    const door = await stocked(5);
    const v = visitor();
    const line = (await json(await v.add({ inventory_id: door.id }))).cartItem!;
    const forged: unknown[] = [
      -1,
      0,
      1e9,
      10 ** 9,
      "1000000000",
      QUANTITY_MAX + 1,
      "abc",
      1.5,
      "1.5",
      "1e3",
      "0x10",
      "-2",
      "",
      " ",
      null,
      true,
      [],
      [2],
      {},
      Number.NaN,
      undefined,
    ];
    for (const quantity of forged) {
      const res = await v.update({ cart_id: line.id, quantity });
      expect(res.status, JSON.stringify(quantity)).toBe(400);
      expect(await res.json()).toEqual({ success: false, message: CART_MESSAGES.quantity });
    }
    for (const quantity of ["-1", "0", "abc", "99999999999", ""]) {
      const form = new URLSearchParams({ cart_id: line.id, quantity }).toString();
      const res = await v.update(form, "application/x-www-form-urlencoded");
      expect(res.status, quantity).toBe(400);
    }
    expect(await quantityOf(line.id)).toBe(1);
    // The most a request may name, against a small stock: the stock's answer.
    expect((await v.update({ cart_id: line.id, quantity: QUANTITY_MAX })).status).toBe(409);

    for (const cart_id of ["1", "'; drop table cart_items; --", "", 42, null]) {
      const res = await v.update({ cart_id, quantity: 1 });
      expect(res.status, String(cart_id)).toBe(400);
      expect((await json(res)).message).toBe(CART_MESSAGES.item);
    }
    // Another visitor's line, or no cookie: not in your cart.
    const stranger = visitor();
    await stranger.add({ inventory_id: door.id });
    expect((await stranger.update({ cart_id: line.id, quantity: 2 })).status).toBe(404);
    const anonymous = await cartApi(post("/api/store/cart/update", { cart_id: line.id, quantity: 2 }), cartUpdate, {
      db: conn.db,
    });
    expect(anonymous.status).toBe(404);
    expect(await quantityOf(line.id)).toBe(5);
    // A body that cannot be read.
    const broken = await cartApi(
      new Request(`${BASE}/api/store/cart/update`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: v.cookie! },
        body: '{"cart_id": ',
      }),
      cartUpdate,
      { db: conn.db },
    );
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
  });
});

describe("deleting from the cart", () => {
  it("removes a line of one's own cart; another cart's line is refused and stays; each cookie sees its own cart", async () => {
    const alice = visitor();
    const bob = visitor();
    const a = (await (await alice.add({ inventory_id: remote })).json()) as { cartItem: { id: string } };
    await alice.add({ inventory_id: opener });
    const b = (await (await bob.add({ inventory_id: opener })).json()) as { cartItem: { id: string } };
    expect(alice.cookie).not.toBe(bob.cookie);
    expect((await bob.get()).body.cartItems.map((i) => i.id)).toEqual([b.cartItem.id]);

    // Bob tries Alice's line: "not in your cart", and it is still there.
    const refused = await bob.remove({ cart_id: a.cartItem.id });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ success: false, message: CART_MESSAGES.item });
    expect(await conn.db.select().from(cartItems).where(eq(cartItems.id, a.cartItem.id))).toHaveLength(1);
    // Without a cookie, the same.
    const anonymous = await cartApi(post("/api/store/cart/delete", { cart_id: a.cartItem.id }), cartDelete, {
      db: conn.db,
    });
    expect(anonymous.status).toBe(404);

    const done = await alice.remove({ cart_id: a.cartItem.id.toUpperCase() });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ success: true, message: CART_ADD_MESSAGES.removed });
    expect(await conn.db.select().from(cartItems).where(eq(cartItems.id, a.cartItem.id))).toHaveLength(0);
    expect((await alice.get()).body.cartItems.map((i) => i.name)).toEqual(["Test Opener"]);
    expect((await bob.get()).body.cartItems).toHaveLength(1);

    // Again: already gone.
    expect((await alice.remove({ cart_id: a.cartItem.id })).status).toBe(404);
  });

  it("refuses a malformed cart_id with a 400, never a 500", async () => {
    const v = visitor();
    await v.add({ inventory_id: remote });
    for (const cart_id of ["1", "'; drop table cart_items; --", "", 42, ["a"], undefined]) {
      const res = await v.remove({ cart_id });
      expect(res.status, String(cart_id)).toBe(400);
      expect(await res.json()).toEqual({ success: false, message: CART_MESSAGES.item });
    }
    const form = await cartApi(
      post("/api/store/cart/delete", "cart_id=nope", v.cookie, "application/x-www-form-urlencoded"),
      cartDelete,
      { db: conn.db },
    );
    expect(form.status).toBe(400);
  });
});
