/**
 * Service-area map constants (SPEC §2 Service Areas, §9 Map clustering).
 * Shared by the server-drawn SVG map and the optional Google map.
 */
import { company, locationData, type LocationData } from "~/lib/company";

export type City = {
  name: string;
  lat: number;
  lng: number;
  /** Where the SVG label sits relative to the marker (avoids overlaps). */
  label: "right" | "left" | "left-low" | "above" | "below";
};

/** A company location's coordinates (company.ts), so a city with a location is placed once. */
function at(slug: LocationData["slug"]): Pick<City, "lat" | "lng"> {
  const location = locationData.find((l) => l.slug === slug);
  if (!location) throw new Error(`no company location "${slug}"`);
  return { lat: location.lat, lng: location.lng };
}

/**
 * The six cities of the service area (SPEC §2, DECISIONS 30), with their real
 * coordinates: the one list the map (SVG and Google) and the booking's ZIP
 * check (./coverage.server.ts) read. The four with a location take its
 * coordinates; Detroit and Port Huron have none.
 */
export const serviceCities: City[] = [
  { name: "Saginaw", ...at("saginaw"), label: "right" },
  { name: "Flint", ...at("flint"), label: "right" },
  { name: "Pontiac", ...at("pontiac"), label: "left-low" },
  { name: "Detroit", lat: 42.3314, lng: -83.0458, label: "right" },
  { name: "Lansing", ...at("lansing"), label: "left" },
  { name: "Port Huron", lat: 42.9709, lng: -82.4249, label: "right" },
];

export const MAP_CENTER = { lat: 42.7325, lng: -84.5555 }; // Lansing
export const MAP_ZOOM = 7;
/** The radius of every city's circle (company.ts), on the map and in the check. */
export const SERVICE_RADIUS_MILES: number = company.serviceRadiusMiles;
/** Mean Earth radius in miles (IUGG): the circles drawn and the distances measured. */
export const EARTH_RADIUS_MILES = 3958.8;
export const METERS_PER_MILE = 1609.344;
export const SERVICE_RADIUS_METERS = SERVICE_RADIUS_MILES * METERS_PER_MILE;

/** Marker clustering (SPEC §9). */
export const CLUSTER = {
  gridSize: 60,
  minimumClusterSize: 2,
  zoomOnClickDelayMs: 100,
  /** Point-index options: cluster radius in pixels and the zoom above which nothing clusters. */
  radius: 40,
  maxZoom: 16,
} as const;

export const BRAND_GREEN = "#1d5c3a";
export const ALERT_RED = "#c62828";
