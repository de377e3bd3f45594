import { geoPath } from "d3-geo";
import { describe, expect, it } from "vitest";
import { MAP_CENTER, SERVICE_RADIUS_MILES, serviceCities } from "./config";
import {
  EARTH_RADIUS_MILES,
  MAP_HEIGHT,
  MAP_WIDTH,
  mercatorScaleForZoom,
  serviceAreaMap,
  serviceAreaProjection,
  serviceCircle,
} from "./service-area.server";

const toRad = (deg: number) => (deg * Math.PI) / 180;

describe("service-area map", () => {
  it("uses the Mercator scale of Google Maps zoom 7, centred on Lansing", () => {
    const projection = serviceAreaProjection();
    // 256-pixel tiles: the whole world is 256·2^7 pixels wide at zoom 7.
    expect(projection.scale() * 2 * Math.PI).toBeCloseTo(256 * 2 ** 7, 6);
    expect(mercatorScaleForZoom(7)).toBeCloseTo(5215.19, 1);
    const [x, y] = projection([MAP_CENTER.lng, MAP_CENTER.lat])!;
    expect(x).toBeCloseTo(MAP_WIDTH / 2, 6);
    expect(y).toBeCloseTo(MAP_HEIGHT / 2, 6);
  });

  it("draws each 50-mile circle with the radius the projection's scale gives that latitude", () => {
    const projection = serviceAreaProjection();
    const path = geoPath(projection);
    for (const city of serviceCities) {
      const [[x0, y0], [x1, y1]] = path.bounds(serviceCircle(city));
      // Mercator stretches distances by sec(latitude): r_px = scale · (d / R) / cos φ.
      const expected = (projection.scale() * (SERVICE_RADIUS_MILES / EARTH_RADIUS_MILES)) / Math.cos(toRad(city.lat));
      const horizontal = (x1 - x0) / 2;
      const vertical = (y1 - y0) / 2;
      expect(horizontal / expected).toBeCloseTo(1, 2);
      // The vertical extent stays within 1% (the sec φ factor varies across the circle).
      expect(Math.abs(vertical / expected - 1)).toBeLessThan(0.01);
    }
  });

  it("places one marker and one circle per city of the spec", async () => {
    const map = await serviceAreaMap();
    expect(map.cities.map((c) => c.name)).toEqual(["Saginaw", "Flint", "Pontiac", "Detroit", "Lansing", "Port Huron"]);
    for (const c of map.cities) {
      expect(c.circle).toMatch(/^M[\d.]+,[\d.]+/);
      expect(c.x).toBeGreaterThan(0);
      expect(c.x).toBeLessThan(MAP_WIDTH);
      expect(c.y).toBeGreaterThan(0);
      expect(c.y).toBeLessThan(MAP_HEIGHT);
    }
    const lansing = map.cities.find((c) => c.name === "Lansing")!;
    expect([lansing.x, lansing.y]).toEqual([MAP_WIDTH / 2, MAP_HEIGHT / 2]);
  });

  it("outlines Michigan from us-atlas and stays small enough to inline", async () => {
    const map = await serviceAreaMap();
    expect(map.michigan.length).toBeGreaterThan(1000);
    const total =
      map.michigan.length + map.neighbours.join("").length + map.cities.reduce((n, c) => n + c.circle.length, 0);
    expect(total).toBeLessThan(40_000);
  });
});
