import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/** Showrooms and service locations (SPEC §3 Location). Seeded from app/lib/company.ts. */
export const locations = pgTable("locations", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  address: text("address").notNull(),
  city: text("city").notNull(),
  hours: text("hours"),
  phone: text("phone").notNull(),
  phoneLink: text("phone_link").notNull(),
  mapLink: text("map_link").notNull(),
  lat: doublePrecision("lat").notNull(),
  lng: doublePrecision("lng").notNull(),
  sort: integer("sort").notNull().default(0),
});

/**
 * Customer reviews shown in the footer carousel and on /review.
 * source = 'seed' for the stored reviews, 'google' for the cached Places reviews.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: serial("id").primaryKey(),
    source: text("source").notNull().default("seed"),
    authorName: text("author_name").notNull(),
    profilePhotoUrl: text("profile_photo_url"),
    rating: smallint("rating").notNull(),
    text: text("text").notNull(),
    locationSlug: text("location_slug"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reviews_source_idx").on(t.source)],
);

/** Small shared cache (e.g. when the Places reviews were last fetched). Shared by every instance. */
export const cacheEntries = pgTable("cache_entries", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
