import { geoDistance } from "d3-geo";
// The ZIP centroids (zipcodes, pinned in package.json) stay on the server: a `.server` module never reaches the browser.
import zipcodes from "zipcodes";
import { locationData } from "~/lib/company";
import { EARTH_RADIUS_MILES, SERVICE_RADIUS_MILES, serviceCities } from "./config";
import { OFFICE_WILL_CONFIRM, type Coverage, type NearestLocation, zip5 } from "./coverage";

/**
 * Is a ZIP code inside the service area (DECISIONS 30)? Its centroid, from
 * the offline data of the `zipcodes` package (no network call), measured
 * great-circle (d3-geo's geoDistance, on a sphere of the Earth's mean
 * radius) to each of the map's six cities (./config.ts, the one list):
 * inside when within SERVICE_RADIUS_MILES of any. The nearest location
 * named to a visitor is the nearest of the company's locations (company.ts),
 * each of which has a phone: Detroit and Port Huron have none of their own,
 * so a ZIP near them is told Pontiac's or Flint's.
 */
export function coverageOf(value: string): Coverage {
  const zip = zip5(value);
  if (!zip) return { zip: value.trim().slice(0, 10), status: "invalid", inside: false, nearest: null };
  const point = centroid(zip);
  if (!point) return { zip, status: "unknown", inside: false, nearest: null };
  const inside = serviceCities.some((city) => miles(point, city) <= SERVICE_RADIUS_MILES);
  return { zip, status: inside ? "inside" : "outside", inside, nearest: nearestLocation(point) };
}

/** A US ZIP code's centroid as [longitude, latitude], or null when the data has no such ZIP. */
function centroid(zip: string): [number, number] | null {
  const place = zipcodes.lookup(zip);
  return place && place.country === "US" ? [place.longitude, place.latitude] : null;
}

/** Miles from a five-digit ZIP's centroid to each of the six cities (null: no such ZIP). */
export function milesToCities(zip: string): Record<string, number> | null {
  const point = centroid(zip);
  return point && Object.fromEntries(serviceCities.map((city) => [city.name, miles(point, city)]));
}

function miles(point: [number, number], to: { lat: number; lng: number }): number {
  return geoDistance(point, [to.lng, to.lat]) * EARTH_RADIUS_MILES;
}

function nearestLocation(point: [number, number]): NearestLocation {
  let best: NearestLocation | null = null;
  for (const location of locationData) {
    const distance = miles(point, location);
    if (!best || distance < best.miles)
      best = {
        name: location.name.replace(/ Showroom$/, ""),
        phone: location.phone.display,
        phoneHref: location.phone.href,
        miles: Math.round(distance * 10) / 10,
      };
  }
  if (!best) throw new Error("company.ts lists no location");
  return best;
}

/**
 * For the forms that take any ZIP (quotes, commercial service): the sentence added to their
 * success when the ZIP is a US one outside every circle, else null. Never a refusal.
 */
export function officeWillConfirm(zip: string): string | null {
  return coverageOf(zip).status === "outside" ? OFFICE_WILL_CONFIRM : null;
}
