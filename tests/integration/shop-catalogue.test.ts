import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { categories } from "@db/schema";
import { seedCategories, seedProducts } from "@db/seed-data/catalogue";
import { apiProduct, getProduct, listCategories, listProducts } from "~/shop/catalogue.server";
import { priceWithOptions } from "~/shop/pricing";
import { readShopQuery, shopHref } from "~/shop/query";
import { createTestDatabase } from "../support/db";

let conn: Connection;
const db = () => conn.db;

beforeAll(async () => {
  conn = await createTestDatabase();
});
afterAll(async () => {
  await conn.close();
});

const names = (list: { name: string }[]) => list.map((p) => p.name);

describe("the catalogue on the real database", () => {
  it("is seeded with a realistic catalogue: 20–40 products over several categories, each with an image, a description and stock", async () => {
    const all = await listProducts(db());
    expect(all.length).toBe(seedProducts.length);
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(all.length).toBeLessThanOrEqual(40);
    expect(new Set(all.map((p) => p.categoryId)).size).toBeGreaterThanOrEqual(5);
    for (const p of all) {
      expect(p.image, p.name).toMatch(/^\/images\/shop\/[a-z-]+\.svg$/);
      expect(p.description.length, p.name).toBeGreaterThan(20);
      for (const field of p.customFields) {
        // SPEC §3: the first option is preselected; here it is also the plain choice.
        expect(field.options.length, `${p.name}: ${field.name}`).toBeGreaterThan(0);
        expect(priceWithOptions(p, undefined).ok).toBe(true);
      }
    }
    expect(all.some((p) => p.stock === 0)).toBe(true);
  });

  it("lists only the categories that hold products, in catalogue order", async () => {
    const [empty] = await db().insert(categories).values({ name: "Furniture" }).returning();
    const listed = await listCategories(db());
    expect(names(listed)).toEqual([...seedCategories]);
    expect(listed.map((c) => c.id)).not.toContain(empty!.id);
  });

  it("filters by category", async () => {
    const [windows] = (await listCategories(db())).filter((c) => c.name === "Windows");
    const list = await listProducts(db(), { category: windows!.id });
    expect(names(list).sort()).toEqual(
      seedProducts
        .filter((p) => p.category === "Windows")
        .map((p) => p.name)
        .sort(),
    );
    expect(await listProducts(db(), { category: 999_999 })).toEqual([]);
  });

  it("searches a case-insensitive substring of the name, wildcards taken literally", async () => {
    expect(names(await listProducts(db(), { q: "GARAGE DOOR OPENER" })).sort()).toEqual([
      "Belt-Drive Garage Door Opener",
      "Chain-Drive Garage Door Opener",
      "Screw-Drive Garage Door Opener",
    ]);
    expect(names(await listProducts(db(), { q: "window" }))).toContain("Sliding Basement Window");
    expect(await listProducts(db(), { q: "%" })).toEqual([]);
    expect(await listProducts(db(), { q: "_" })).toEqual([]);
    expect(await listProducts(db(), { q: "no such thing" })).toEqual([]);
  });

  it("sorts A-Z, Z-A, by price low to high and high to low", async () => {
    const az = names(await listProducts(db(), { sort: "name-asc" }));
    expect([...az].sort()).toEqual(names(seedProducts).sort());
    expect(az.slice(0, 3)).toEqual(["Bay Window", "Belt-Drive Garage Door Opener", "Carriage House Steel Garage Door"]);
    expect(names(await listProducts(db(), { sort: "name-desc" }))).toEqual([...az].reverse());
    const low = (await listProducts(db(), { sort: "price-asc" })).map((p) => p.priceCents);
    expect(low).toEqual([...low].sort((a, b) => a - b));
    const high = (await listProducts(db(), { sort: "price-desc" })).map((p) => p.priceCents);
    expect(high).toEqual([...high].sort((a, b) => b - a));
    // Filter, search and sort together.
    const [doors] = (await listCategories(db())).filter((c) => c.name === "Garage Doors");
    const steel = await listProducts(db(), { category: doors!.id, q: "steel", sort: "price-desc" });
    expect(steel.map((p) => p.priceCents)).toEqual([2_195_00, 1_349_00, 895_00]);
  });

  it("reads one product, and nothing for an unknown or out-of-range id", async () => {
    const [first] = await listProducts(db(), { q: "Belt-Drive" });
    const product = await getProduct(db(), first!.id);
    expect(product).toMatchObject({ name: "Belt-Drive Garage Door Opener", priceCents: 549_00 });
    expect(apiProduct(product!)).toEqual({
      id: first!.id,
      name: "Belt-Drive Garage Door Opener",
      price: 549,
      image: "/images/shop/opener.svg",
      category: first!.categoryId,
      description: product!.description,
      customFields: product!.customFields,
      stock: product!.stock,
    });
    expect(await getProduct(db(), 987_654)).toBeNull();
    expect(await getProduct(db(), 0)).toBeNull();
    expect(await getProduct(db(), 2 ** 40)).toBeNull();
  });

  it("prices a stored product with its options in cents", async () => {
    const [opener] = await listProducts(db(), { q: "Belt-Drive" });
    expect(priceWithOptions(opener!, { Horsepower: "3/4 HP", "Battery Backup": "Battery backup" })).toMatchObject({
      ok: true,
      cents: 549_00 + 60_00 + 79_99,
    });
    expect(priceWithOptions(opener!, { Horsepower: "9 HP" })).toMatchObject({ ok: false, field: "Horsepower" });
  });
});

describe("the shop's URL", () => {
  it("reads category, search and sort, dropping what means nothing", () => {
    expect(readShopQuery(new URLSearchParams("category=3&q=%20door%20&sort=price-desc"))).toEqual({
      category: 3,
      q: "door",
      sort: "price-desc",
    });
    expect(readShopQuery(new URLSearchParams("category=abc&q=&sort=cheapest"))).toEqual({ q: "", sort: "name-asc" });
    expect(readShopQuery(new URLSearchParams("category=07"))).toEqual({ q: "", sort: "name-asc" });
    expect(shopHref({ q: "", sort: "name-asc" })).toBe("/shop");
    expect(shopHref({ category: 2, q: "a b", sort: "name-desc" })).toBe("/shop?category=2&q=a+b&sort=name-desc");
  });
});
