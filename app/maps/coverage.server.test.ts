import { describe, expect, it } from "vitest";
import { locationData } from "~/lib/company";
import { SERVICE_RADIUS_MILES, serviceCities } from "./config";
import { INVALID_ZIP_MESSAGE, coverageNote, isOutsideAreaMessage, outsideAreaMessage } from "./coverage";
import { centroid, coverageOf, milesToCities } from "./coverage.server";

const phoneOf = (slug: string) => locationData.find((l) => l.slug === slug)!.phone.display;

describe("the service area's ZIP check (DECISIONS 30)", () => {
  it("is the six cities of the map, 50 miles each", () => {
    expect(serviceCities.map((c) => c.name)).toEqual([
      "Saginaw",
      "Flint",
      "Pontiac",
      "Detroit",
      "Lansing",
      "Port Huron",
    ]);
    expect(SERVICE_RADIUS_MILES).toBe(50);
    // The four cities with a location are placed where the location is (one set of coordinates).
    for (const location of locationData) {
      const city = serviceCities.find((c) => location.name.startsWith(c.name))!;
      expect([city.lat, city.lng]).toEqual([location.lat, location.lng]);
    }
  });

  it.each([
    ["48502", "Flint", "Flint"],
    ["48933", "Lansing", "Lansing"],
    ["48060", "Port Huron", "Pontiac"],
    ["48226", "Detroit", "Pontiac"],
    ["48601", "Saginaw", "Saginaw"],
    ["48342", "Pontiac", "Pontiac"],
  ])("%s is inside the circle of %s (nearest location with a phone: %s)", async (zip, city, location) => {
    expect((await milesToCities(zip))![city]).toBeLessThan(5);
    const c = await coverageOf(zip);
    expect(c).toMatchObject({ zip, status: "inside", inside: true, nearest: { name: location } });
  });

  // Each circle counts on its own: a ZIP within one city's 50 miles and no other's.
  it.each([
    ["48617", "Saginaw"], // Clare
    ["48813", "Lansing"], // Charlotte
    ["43603", "Detroit"], // Toledo, Ohio: the circle crosses the state line
    ["48422", "Port Huron"], // Croswell
  ])("%s is inside the circle of %s only", async (zip, city) => {
    const miles = (await milesToCities(zip))!;
    const within = Object.entries(miles).filter(([, m]) => m <= SERVICE_RADIUS_MILES);
    expect(within.map(([name]) => name)).toEqual([city]);
    expect((await coverageOf(zip)).status).toBe("inside");
  });

  it.each([
    ["49684", "Traverse City", "Saginaw", 123],
    ["49503", "Grand Rapids", "Lansing", 58],
    ["49001", "Kalamazoo", "Lansing", 60],
    ["48456", "Minden City", "Saginaw", 64],
  ])("%s (%s) is outside every circle; nearest location %s, about %i miles", async (zip, _place, location, about) => {
    const miles = (await milesToCities(zip))!;
    for (const city of serviceCities) expect(miles[city.name]).toBeGreaterThan(SERVICE_RADIUS_MILES);
    const c = await coverageOf(zip);
    expect(c.status).toBe("outside");
    expect(c.inside).toBe(false);
    expect(c.nearest).toMatchObject({ name: location, phone: phoneOf(location.toLowerCase()) });
    expect(Math.round(c.nearest!.miles)).toBe(about);
  });

  it("says the refusal with the ZIP, the miles, the nearest location and its phone", async () => {
    const c = await coverageOf("49684");
    const text = outsideAreaMessage("49684", c.nearest!);
    expect(text).toBe(
      `We don't book online visits to ZIP 49684: it is about 123 miles from our nearest service location, Saginaw. Call us at ${phoneOf("saginaw")}, or ask for a quote and we'll tell you what we can do.`,
    );
    expect(isOutsideAreaMessage(text)).toBe(true);
    expect(coverageNote(c)).toEqual({ error: true, text });
    expect(coverageNote(await coverageOf("48502"))).toEqual({
      error: false,
      text: "ZIP 48502 is in our service area.",
    });
  });

  it.each(["00000", "99999", "48999"])("%s is no ZIP code: unknown, a field error", async (zip) => {
    const c = await coverageOf(zip);
    expect(c).toEqual({ zip, status: "unknown", inside: false, nearest: null });
    expect(await milesToCities(zip)).toBeNull();
    expect(coverageNote(c)).toEqual({ error: true, text: INVALID_ZIP_MESSAGE });
  });

  it.each(["", "4850", "485021", "48502-", "ABCDE", "M5V 2T6", "M5V"])("%j is not a US ZIP: invalid", async (zip) => {
    expect((await coverageOf(zip)).status).toBe("invalid");
  });

  it("takes ZIP+4 by its first five digits, and trims", async () => {
    expect(await coverageOf("48502-1234")).toMatchObject({ zip: "48502", status: "inside" });
    expect((await coverageOf(" 48933 ")).status).toBe("inside");
  });
});

describe("the ZIP centroids the server reads (scripts/zip-centroids.ts)", () => {
  it("are the zipcodes package's, for every US ZIP, and there are none for any other five digits", async () => {
    const { default: zipcodes } = await import("zipcodes");
    const { codes } = zipcodes as unknown as {
      codes: Record<string, { zip: string; latitude: number; longitude: number; country: string }>;
    };
    let us = 0;
    for (const place of Object.values(codes)) {
      if (place.country !== "US") continue;
      us++;
      const point = await centroid(place.zip);
      expect(point, place.zip).not.toBeNull();
      expect(point![0]).toBeCloseTo(place.longitude, 4);
      expect(point![1]).toBeCloseTo(place.latitude, 4);
    }
    expect(us).toBeGreaterThan(40_000);
    for (const zip of ["00000", "00001", "99999", "48999"])
      expect((await centroid(zip)) !== null, zip).toBe(zipcodes.lookup(zip)?.country === "US");
  });
});
