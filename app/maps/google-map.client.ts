import { clusterColor, clusterPoints } from "./cluster";
import { BRAND_GREEN, CLUSTER, MAP_CENTER, MAP_ZOOM, SERVICE_RADIUS_METERS, serviceCities, type City } from "./config";

/**
 * The interactive Google map of the service area, used only when the server
 * is configured with GOOGLE_MAPS_API_KEY. Loads the Maps JavaScript API
 * (weekly version, asynchronously), then draws a marker and a 50-mile circle
 * per city, with grid clustering (SPEC §9).
 */

type LatLng = { lat: number; lng: number };
type Listener = { remove(): void };
type GMap = {
  getZoom(): number | undefined;
  getProjection(): { fromLatLngToPoint(p: LatLng): { x: number; y: number } | null } | undefined;
  fitBounds(bounds: GBounds, padding?: number): void;
  addListener(event: string, fn: () => void): Listener;
};
type GMarker = { setMap(map: GMap | null): void; addListener(event: string, fn: () => void): Listener };
type GBounds = { extend(p: LatLng): GBounds };
export type MapsApi = {
  Map: new (el: HTMLElement, opts: Record<string, unknown>) => GMap;
  Marker: new (opts: Record<string, unknown>) => GMarker;
  Circle: new (opts: Record<string, unknown>) => unknown;
  LatLngBounds: new () => GBounds;
};

type GoogleGlobal = {
  maps?: {
    importLibrary?: (name: string) => Promise<Record<string, unknown>>;
  } & Partial<MapsApi>;
};

declare global {
  interface Window {
    google?: GoogleGlobal;
    gm_authFailure?: () => void;
    __doverMapsReady?: () => void;
  }
}

export const MAPS_SCRIPT_URL = "https://maps.googleapis.com/maps/api/js";

let loading: Promise<MapsApi> | undefined;

export function loadGoogleMaps(key: string): Promise<MapsApi> {
  loading ??= new Promise<MapsApi>((resolve, reject) => {
    window.__doverMapsReady = () => {
      resolveApi().then(resolve, reject);
    };
    const script = document.createElement("script");
    const params = new URLSearchParams({ key, v: "weekly", loading: "async", callback: "__doverMapsReady" });
    script.src = `${MAPS_SCRIPT_URL}?${params}`;
    script.async = true;
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error("the Maps JavaScript API script failed to load"));
    };
    document.head.append(script);
  });
  return loading;
}

async function resolveApi(): Promise<MapsApi> {
  const maps = window.google?.maps;
  if (!maps) throw new Error("google.maps is missing after the script loaded");
  if (maps.importLibrary) {
    const [core, mapsLib, markerLib] = await Promise.all([
      maps.importLibrary("core"),
      maps.importLibrary("maps"),
      maps.importLibrary("marker"),
    ]);
    return { ...core, ...mapsLib, ...markerLib } as unknown as MapsApi;
  }
  return maps as MapsApi;
}

function clusterIcon(count: number, colour: string): string {
  const size = 40 + Math.min(20, Math.log2(count) * 6);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="${colour}" stroke="#fff" stroke-width="3"/></svg>`;
  return `data:image/svg+xml;charset=UTF-8,${encodeURIComponent(svg)}`;
}

/** Draws the service area into `el`; resolves once the map exists. Throws on auth failure. */
export async function showGoogleMap(el: HTMLElement, key: string): Promise<void> {
  const authFailed = new Promise<never>((_, reject) => {
    window.gm_authFailure = () => reject(new Error("Google rejected the API key"));
  });
  const api = await Promise.race([loadGoogleMaps(key), authFailed]);
  const map = new api.Map(el, {
    center: MAP_CENTER,
    zoom: MAP_ZOOM,
    mapTypeControl: false,
    streetViewControl: false,
    clickableIcons: false,
  });

  for (const city of serviceCities) {
    new api.Circle({
      map,
      center: { lat: city.lat, lng: city.lng },
      radius: SERVICE_RADIUS_METERS,
      strokeColor: BRAND_GREEN,
      strokeOpacity: 0.85,
      strokeWeight: 2,
      fillColor: BRAND_GREEN,
      fillOpacity: 0.12,
      clickable: false,
    });
  }

  const cityMarkers = new Map<City, GMarker>(
    serviceCities.map((city) => [
      city,
      new api.Marker({ position: { lat: city.lat, lng: city.lng }, title: city.name }),
    ]),
  );
  let clusterMarkers: GMarker[] = [];

  const render = () => {
    const zoom = map.getZoom() ?? MAP_ZOOM;
    const projection = map.getProjection();
    if (!projection) return;
    const scale = 2 ** zoom;
    const points = serviceCities.map((city) => {
      const p = projection.fromLatLngToPoint({ lat: city.lat, lng: city.lng }) ?? { x: 0, y: 0 };
      return { x: p.x * scale, y: p.y * scale, item: city };
    });
    const clusters = clusterPoints(points, zoom, CLUSTER);
    const counts = clusters.filter((c) => c.items.length > 1).map((c) => c.items.length);
    for (const m of clusterMarkers) m.setMap(null);
    clusterMarkers = [];
    for (const cluster of clusters) {
      if (cluster.items.length === 1) {
        cityMarkers.get(cluster.items[0]!)?.setMap(map);
        continue;
      }
      for (const city of cluster.items) cityMarkers.get(city)?.setMap(null);
      const bounds = new api.LatLngBounds();
      for (const city of cluster.items) bounds.extend({ lat: city.lat, lng: city.lng });
      const marker = new api.Marker({
        map,
        position: {
          lat: cluster.items.reduce((s, c) => s + c.lat, 0) / cluster.items.length,
          lng: cluster.items.reduce((s, c) => s + c.lng, 0) / cluster.items.length,
        },
        title: cluster.items.map((c) => c.name).join(", "),
        label: { text: String(cluster.items.length), color: "#ffffff", fontWeight: "700" },
        icon: { url: clusterIcon(cluster.items.length, clusterColor(cluster.items.length, counts)) },
        zIndex: 1000 + cluster.items.length,
      });
      marker.addListener("click", () => {
        window.setTimeout(() => map.fitBounds(bounds, 80), CLUSTER.zoomOnClickDelayMs);
      });
      clusterMarkers.push(marker);
    }
  };
  map.addListener("idle", render);
}
