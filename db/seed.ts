import { sql } from "drizzle-orm";
import { locationData } from "../app/lib/company";
import type { Database } from "./client.server";
import { categories, locations, products, reviews } from "./schema";
import { seedCategories, seedProducts } from "./seed-data/catalogue";
import { seedReviews } from "./seed-data/reviews";

/**
 * Fills an empty database with the fixed data. Each table is seeded only when
 * empty, so running it again (or from a second instance) changes nothing.
 */
export async function seed(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    const isEmpty = async (table: typeof locations | typeof reviews | typeof categories) =>
      (
        await tx
          .select({ one: sql<number>`1` })
          .from(table)
          .limit(1)
      ).length === 0;

    if (await isEmpty(locations)) {
      await tx.insert(locations).values(
        locationData.map((l, i) => ({
          slug: l.slug,
          name: l.name,
          address: l.address,
          city: l.city,
          hours: l.hours ?? null,
          phone: l.phone.display,
          phoneLink: l.phone.href,
          mapLink: l.mapLink,
          lat: l.lat,
          lng: l.lng,
          sort: i,
        })),
      );
    }

    if (await isEmpty(reviews)) {
      const now = Date.now();
      await tx.insert(reviews).values(
        seedReviews.map((r, i) => ({
          ...r,
          source: "seed",
          publishedAt: new Date(now - (i + 1) * 9 * 86_400_000),
        })),
      );
    }

    if (await isEmpty(categories)) {
      const inserted = await tx
        .insert(categories)
        .values(seedCategories.map((name) => ({ name })))
        .returning();
      const idByName = new Map(inserted.map((c) => [c.name, c.id]));
      await tx
        .insert(products)
        .values(seedProducts.map(({ category, ...p }) => ({ ...p, categoryId: idByName.get(category)! })));
    }
  });
}
