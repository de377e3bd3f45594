import { geoDistance } from "d3-geo";
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
export async function coverageOf(value: string): Promise<Coverage> {
  const zip = zip5(value);
  if (!zip) return { zip: value.trim().slice(0, 10), status: "invalid", inside: false, nearest: null };
  const point = await centroid(zip);
  if (!point) return { zip, status: "unknown", inside: false, nearest: null };
  const inside = serviceCities.some((city) => miles(point, city) <= SERVICE_RADIUS_MILES);
  return { zip, status: inside ? "inside" : "outside", inside, nearest: nearestLocation(point) };
}

type Columns = { n: number; zips: Uint32Array; lat: Int32Array; lng: Int32Array };
let table: Promise<Columns> | undefined;

/**
 * The table's three columns (scripts/zip-centroids.ts): ZIPs in order, latitudes and longitudes
 * × 10⁴. The ZIP centroids (zipcodes, pinned in package.json, read at build time) stay on the
 * server (a `.server` module never reaches the browser) and load with the first ZIP asked about,
 * not with the server: 665 KB of text and 530 KB of columns (issue 39).
 */
function zipTable(): Promise<Columns> {
  table ??= import("virtual:zip-centroids").then(({ default: centroidTable }) => {
    const bytes = new Uint8Array(Buffer.from(centroidTable, "base64")).buffer; // its own, aligned
    const n = new DataView(bytes).getUint32(0, true);
    const column = <T>(Kind: new (b: ArrayBuffer, offset: number, length: number) => T, at: number) =>
      new Kind(bytes, 4 + at * n * 4, n);
    return { n, zips: column(Uint32Array, 0), lat: column(Int32Array, 1), lng: column(Int32Array, 2) };
  });
  return table;
}

/** A US ZIP code's centroid as [longitude, latitude], or null when the data has no such ZIP. */
export async function centroid(zip: string): Promise<[number, number] | null> {
  const columns = await zipTable();
  const wanted = Number(zip);
  let low = 0;
  let high = columns.n - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = columns.zips[mid]!;
    if (at === wanted) return [columns.lng[mid]! / 1e4, columns.lat[mid]! / 1e4];
    if (at < wanted) low = mid + 1;
    else high = mid - 1;
  }
  return null;
}

/** Miles from a five-digit ZIP's centroid to each of the six cities (null: no such ZIP). */
export async function milesToCities(zip: string): Promise<Record<string, number> | null> {
  const point = await centroid(zip);
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
export async function officeWillConfirm(zip: string): Promise<string | null> {
  return (await coverageOf(zip)).status === "outside" ? OFFICE_WILL_CONFIRM : null;
}
