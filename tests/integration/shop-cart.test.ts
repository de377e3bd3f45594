import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { cartItems, carts, categories, products } from "@db/schema";
import { CART_MESSAGES } from "~/shop/cart-schema";
import { CART_ADD_MESSAGES, cartCookieHeader, MAX_CART_ITEMS, pruneCarts } from "~/shop/cart.server";
import { cartAdd, cartApi, cartDelete, cartGet } from "~/shop/cart-api.server";
import { env } from "~/lib/env.server";
import { createTestDatabase } from "../support/db";

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

beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
  const [cat] = await conn.db.insert(categories).values({ name: "Cart test" }).returning();
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
/** A visitor: their own address, and a cookie jar holding the one cart cookie the server set. */
function visitor() {
  let cookie: string | undefined;
  const as = { db: conn.db, clientIp: `198.51.100.${++visitors}` };
  const keep = (res: Response) => {
    const set = res.headers.get("Set-Cookie");
    if (set) cookie = set.split(";")[0];
    return res;
  };
  return {
    get cookie() {
      return cookie;
    },
    add: async (body: unknown, type?: string) =>
      keep(await cartApi(post("/api/store/cart/add", body, cookie, type), cartAdd, as)),
    remove: async (body: unknown) => cartApi(post("/api/store/cart/delete", body, cookie), cartDelete, as),
    get: async () => {
      const res = await cartApi(
        new Request(`${BASE}/api/store/cart/get`, { headers: cookie ? { Cookie: cookie } : {} }),
        cartGet,
        as,
      );
      return { res, body: (await res.json()) as { cartItems: Record<string, unknown>[]; total: number } };
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
    const res = await v.add({ inventory_id: remote });
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(v.cookie).toBe(first);
    expect((await v.get()).body.cartItems).toHaveLength(2);

    for (let i = 2; i < MAX_CART_ITEMS; i++) expect((await v.add({ inventory_id: remote })).status).toBe(200);
    const full = await v.add({ inventory_id: remote });
    expect(full.status).toBe(409);
    expect(((await full.json()) as { message: string }).message).toBe(CART_ADD_MESSAGES.full);
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
      });
      expect(body.total).toBe(45);
    } finally {
      await conn.db.update(products).set({ priceCents: 3900 }).where(eq(products.id, remote));
      await conn.db.update(products).set({ customFields: product!.customFields }).where(eq(products.id, opener));
    }
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
