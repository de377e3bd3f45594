/**
 * Service-area map constants (SPEC §2 Service Areas, §9 Map clustering).
 * Shared by the server-drawn SVG map and the optional Google map.
 */
export type City = {
  name: string;
  lat: number;
  lng: number;
  /** Where the SVG label sits relative to the marker (avoids overlaps). */
  label: "right" | "left" | "left-low" | "above" | "below";
};

/** The six cities of the service area, with their real coordinates. */
export const serviceCities: City[] = [
  { name: "Saginaw", lat: 43.4195, lng: -83.9508, label: "right" },
  { name: "Flint", lat: 43.0125, lng: -83.6875, label: "right" },
  { name: "Pontiac", lat: 42.6389, lng: -83.291, label: "left-low" },
  { name: "Detroit", lat: 42.3314, lng: -83.0458, label: "right" },
  { name: "Lansing", lat: 42.7325, lng: -84.5555, label: "left" },
  { name: "Port Huron", lat: 42.9709, lng: -82.4249, label: "right" },
];

export const MAP_CENTER = { lat: 42.7325, lng: -84.5555 }; // Lansing
export const MAP_ZOOM = 7;
export const SERVICE_RADIUS_MILES = 50;
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
