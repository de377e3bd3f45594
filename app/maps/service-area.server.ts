import { geoCircle, geoMercator, geoPath, type GeoPermissibleObjects } from "d3-geo";
import { EARTH_RADIUS_MILES, MAP_CENTER, MAP_ZOOM, SERVICE_RADIUS_MILES, serviceCities, type City } from "./config";
import type { MapLabel, ServiceAreaMapData } from "./types";

export type { ServiceAreaMapData };

/**
 * The offline service-area map (DECISIONS 19): drawn once on the server from
 * the us-atlas TopoJSON with d3-geo, in Web Mercator, centred on Lansing at a
 * scale equal to Google Maps zoom 7, with a true-scale 50-mile geodesic circle
 * around each city. The page receives path strings only.
 */
export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 800;
export { EARTH_RADIUS_MILES };

/** d3's Mercator scale (pixels per radian) for a Google Maps zoom level (256-pixel tiles). */
export function mercatorScaleForZoom(zoom: number): number {
  return (256 * 2 ** zoom) / (2 * Math.PI);
}

/** The angular radius, in degrees, of a circle of the given length on the Earth's surface. */
export function milesToDegrees(miles: number): number {
  return (miles / EARTH_RADIUS_MILES) * (180 / Math.PI);
}

export function serviceAreaProjection() {
  return geoMercator()
    .scale(mercatorScaleForZoom(MAP_ZOOM))
    .center([MAP_CENTER.lng, MAP_CENTER.lat])
    .translate([MAP_WIDTH / 2, MAP_HEIGHT / 2])
    .clipExtent([
      [0, 0],
      [MAP_WIDTH, MAP_HEIGHT],
    ]);
}

export function serviceCircle(city: Pick<City, "lat" | "lng">, miles = SERVICE_RADIUS_MILES) {
  return geoCircle().center([city.lng, city.lat]).radius(milesToDegrees(miles)).precision(1)();
}

const NEIGHBOUR_NAMES = new Set([
  "Ohio",
  "Indiana",
  "Wisconsin",
  "Illinois",
  "Pennsylvania",
  "New York",
  "West Virginia",
  "Maryland",
]);

/**
 * us-atlas covers the United States only. So that the lakes read as water,
 * the Ontario shore inside the frame is a coarse hand-traced outline
 * (Georgian Bay, Lake Huron, St. Clair River, Lake St. Clair, Lake Erie),
 * clockwise as d3-geo expects.
 */
const ONTARIO = {
  type: "Polygon" as const,
  coordinates: [
    [
      [-81.67, 45.26],
      [-81.3, 44.95],
      [-80.94, 44.6],
      [-80.22, 44.5],
      [-79.88, 44.75],
      [-79.7, 45.0],
      [-78.5, 46.2],
      [-78.5, 42.85],
      [-79.25, 42.87],
      [-80.1, 42.78],
      [-80.3, 42.58],
      [-80.6, 42.6],
      [-81.21, 42.66],
      [-81.9, 42.26],
      [-82.3, 42.07],
      [-82.51, 41.91],
      [-82.62, 42.03],
      [-83.11, 42.1],
      [-83.03, 42.32],
      [-82.9, 42.34],
      [-82.5, 42.31],
      [-82.42, 42.52],
      [-82.41, 42.98],
      [-81.75, 43.3],
      [-81.72, 43.75],
      [-81.64, 44.18],
      [-81.37, 44.5],
      [-81.67, 45.26],
    ],
  ],
};

const LABELS: { name: string; lng: number; lat: number; kind: MapLabel["kind"] }[] = [
  { name: "Lake Michigan", lng: -87.1, lat: 43.6, kind: "water" },
  { name: "Lake Huron", lng: -82.2, lat: 44.6, kind: "water" },
  { name: "Saginaw Bay", lng: -83.55, lat: 44.05, kind: "water" },
  { name: "Lake Erie", lng: -81.35, lat: 42.12, kind: "water" },
  { name: "ONTARIO", lng: -80.7, lat: 43.4, kind: "region" },
  { name: "OHIO", lng: -83.6, lat: 41.15, kind: "region" },
  { name: "INDIANA", lng: -86.1, lat: 41.2, kind: "region" },
  { name: "WISCONSIN", lng: -88.9, lat: 44.6, kind: "region" },
];

let cached: ServiceAreaMapData | undefined;

/**
 * The service-area map's shapes, drawn once. The atlas (180 KB of shapes, turned into objects when
 * its module runs) and topojson load with the first page that shows the map, not with the server
 * (issue 39).
 */
export async function serviceAreaMap(): Promise<ServiceAreaMapData> {
  if (cached) return cached;
  const [{ default: states }, { feature }] = await Promise.all([
    import("us-atlas/states-10m.json"),
    import("topojson-client"),
  ]);
  const projection = serviceAreaProjection();
  const path = geoPath(projection).digits(1);
  const all = feature(states, states.objects.states).features;
  const draw = (o: GeoPermissibleObjects) => path(o) ?? "";
  const michigan = all.find((f) => f.properties.name === "Michigan");
  if (!michigan) throw new Error("us-atlas has no Michigan");
  cached = {
    width: MAP_WIDTH,
    height: MAP_HEIGHT,
    neighbours: [...all.filter((f) => NEIGHBOUR_NAMES.has(f.properties.name)).map(draw), draw(ONTARIO)].filter(Boolean),
    michigan: draw(michigan),
    cities: serviceCities.map((c) => {
      const [x, y] = projection([c.lng, c.lat])!;
      return { name: c.name, x: round(x), y: round(y), circle: draw(serviceCircle(c)), label: c.label };
    }),
    labels: LABELS.map((l) => {
      const [x, y] = projection([l.lng, l.lat])!;
      return { name: l.name, x: round(x), y: round(y), kind: l.kind };
    }),
    radiusMiles: SERVICE_RADIUS_MILES,
  };
  return cached;
}

function round(n: number) {
  return Math.round(n * 10) / 10;
}
