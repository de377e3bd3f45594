import { expect, test } from "../support/test";
import { readFileSync } from "node:fs";
import { MAPS_KEY, PLACE_ID, PLACES_KEY, startKeyedServer, type KeyedServer } from "./support/keyed-server";
import { attrOf, tags } from "./support/html";

/**
 * With GOOGLE_PLACES_API_KEY, GOOGLE_PLACE_ID and GOOGLE_MAPS_API_KEY set, on a
 * server of its own (msw answers the Places API inside that server process;
 * the browser's requests to the Maps script are intercepted here).
 */
test.describe.configure({ mode: "serial" });

let server: KeyedServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startKeyedServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const MAPS_SCRIPT = "https://maps.googleapis.com/maps/api/js**";
const placesFixture = JSON.parse(readFileSync(new URL("../../mocks/places-details.json", import.meta.url), "utf8")) as {
  result: { reviews: { text: string }[] };
};
const firstFixtureReview = placesFixture.result.reviews[0]!.text;

/** A minimal stand-in for the Maps JavaScript API that records what the page asks of it. */
const MAPS_STUB = `(() => {
  const rec = (window.__maps = { map: null, circles: [], markers: [], fitBounds: [] });
  class LatLngBounds { constructor() { this.points = []; } extend(p) { this.points.push(p); return this; } }
  class Map {
    constructor(el, opts) { rec.map = opts; this.zoom = opts.zoom; this.l = {}; el.setAttribute("data-stub-map", "");
      setTimeout(() => (this.l.idle || []).forEach((f) => f()), 0); }
    getZoom() { return this.zoom; }
    getProjection() { return { fromLatLngToPoint: ({ lat, lng }) => { const s = Math.sin((lat * Math.PI) / 180);
      return { x: 256 * (0.5 + lng / 360), y: 256 * (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) }; } }; }
    fitBounds(b) { rec.fitBounds.push({ points: b.points, at: performance.now() }); }
    addListener(ev, fn) { (this.l[ev] ||= []).push(fn); return { remove() {} }; }
  }
  class Circle { constructor(o) { rec.circles.push({ center: o.center, radius: o.radius }); } }
  class Marker {
    constructor(o) { this.o = o; this.l = {}; this.onMap = !!o.map; rec.markers.push(this); }
    setMap(m) { this.onMap = !!m; }
    addListener(ev, fn) { (this.l[ev] ||= []).push(fn); return { remove() {} }; }
  }
  window.google = { maps: { Map, Circle, Marker, LatLngBounds } };
  window[new URL(document.currentScript.src).searchParams.get("callback")]();
})();`;

test("reviews come from Places, fetched once and cached, on /review and in the footer", async ({ page }) => {
  for (const path of ["/", "/review", "/about-us", "/review"]) {
    await page.goto(`${server.url}${path}`);
  }
  await expect(page.getByTestId("review-list")).toContainText(firstFixtureReview);
  await expect(page.locator(".review-carousel")).toContainText("Rosalind Okafor");
  const requests = server.placesRequests();
  expect(requests).toHaveLength(1);
  const asked = new URL(requests[0]!);
  expect(asked.searchParams.get("place_id")).toBe(PLACE_ID);
  expect(asked.searchParams.get("fields")).toBe("reviews");
});

test("the Places key never reaches the browser: not in any HTML, data response or script", async ({ request }) => {
  const seen = new Set<string>();
  const check = async (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    const body = await res.text();
    expect(body.includes(PLACES_KEY), `${url} contains the Places key`).toBe(false);
    return body;
  };
  // Pages that run the app (the map with its key, a product page's form) and pages that run none.
  for (const path of ["/", "/review", "/service-area", "/about-us", "/careers", "/residential-windows"]) {
    const html = (await check(`${server.url}${path}`))!;
    await check(`${server.url}${path === "/" ? "/_" : path}.data`);
    const assets = [
      ...tags(html, "script").map((t) => attrOf(t, "src")),
      ...tags(html, "link")
        .filter((t) => /modulepreload|stylesheet/.test(attrOf(t, "rel") ?? ""))
        .map((t) => attrOf(t, "href")),
      // The modules the page loads after its first paint (app/shell/boot-after-paint.server.ts).
      ...[...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
    ].filter((u): u is string => Boolean(u) && u!.startsWith("/"));
    expect(assets.length).toBeGreaterThan(["/service-area", "/residential-windows"].includes(path) ? 2 : 0);
    for (const a of assets) await check(`${server.url}${a}`);
  }
  // Only the Maps JavaScript API key (a browser key by design) is handed to the service-area page,
  // whose Content-Security-Policy then allows Google's map sources.
  const serviceArea = await request.get(`${server.url}/service-area`);
  expect((await serviceArea.text()).includes(MAPS_KEY)).toBe(true);
  const csp = serviceArea.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src [^;]*https:\/\/maps\.googleapis\.com/);
  expect(csp).toMatch(/img-src [^;]*https:\/\/maps\.gstatic\.com/);
  expect((await (await request.get(`${server.url}/review`)).text()).includes(MAPS_KEY)).toBe(false);
});

test("the Google map shows 'Loading...' and, when its script fails, logs why and keeps the offline map", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let scriptUrl = "";
  await page.route(MAPS_SCRIPT, async (route) => {
    scriptUrl = route.request().url();
    await gate;
    await route.abort();
  });
  await page.goto(`${server.url}/service-area`);
  await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toBeVisible();
  await expect.poll(() => scriptUrl).not.toBe("");
  const params = new URL(scriptUrl).searchParams;
  expect(params.get("key")).toBe(MAPS_KEY);
  expect(params.get("v")).toBe("weekly");
  expect(params.get("loading")).toBe("async");
  release();
  await expect(page.getByTestId("service-map")).toHaveAttribute("data-state", "error");
  await expect(page.getByText("Loading...")).toHaveCount(0);
  await expect(page.getByRole("img", { name: "Map of our Michigan service area" })).toBeVisible();
  expect(errors.some((e) => e.includes("Google Maps could not be loaded") && e.includes("GOOGLE_MAPS_API_KEY"))).toBe(
    true,
  );
});

test("the interactive map gets a marker and a 50-mile circle per city, clustered with the spec's constants", async ({
  page,
}) => {
  await page.route(MAPS_SCRIPT, (route) => route.fulfill({ contentType: "text/javascript", body: MAPS_STUB }));
  await page.goto(`${server.url}/service-area`);
  await expect(page.getByTestId("service-map")).toHaveAttribute("data-state", "loaded");
  await expect(page.locator("[data-stub-map]")).toBeVisible();
  await expect(page.getByRole("img", { name: "Map of our Michigan service area" })).toBeHidden();

  const rec = await page.evaluate(() => {
    const r = (
      window as unknown as {
        __maps: {
          map: { center: unknown; zoom: number };
          circles: { center: { lat: number; lng: number }; radius: number }[];
          markers: { o: { title: string; label?: { text: string } }; onMap: boolean }[];
        };
      }
    ).__maps;
    return {
      map: r.map,
      circles: r.circles,
      visible: r.markers.filter((m) => m.onMap).map((m) => ({ title: m.o.title, label: m.o.label?.text ?? null })),
    };
  });
  expect(rec.map).toMatchObject({ center: { lat: 42.7325, lng: -84.5555 }, zoom: 7 });
  expect(rec.circles).toHaveLength(6);
  for (const c of rec.circles) expect(c.radius).toBeCloseTo(50 * 1609.344, 3);

  // Every city is on the map exactly once: alone, or inside a cluster badge showing its count.
  const shown = rec.visible.flatMap((m) => m.title.split(", "));
  expect(shown.sort()).toEqual(["Detroit", "Flint", "Lansing", "Pontiac", "Port Huron", "Saginaw"]);
  const clusters = rec.visible.filter((m) => m.label !== null);
  expect(clusters.length).toBeGreaterThan(0);
  for (const c of clusters) expect(Number(c.label)).toBe(c.title.split(", ").length);

  // Clicking a cluster zooms to its cities after the 100 ms delay.
  const timing = await page.evaluate(async () => {
    const r = (
      window as unknown as {
        __maps: {
          markers: { o: { label?: unknown }; onMap: boolean; l: Record<string, (() => void)[]> }[];
          fitBounds: { points: unknown[]; at: number }[];
        };
      }
    ).__maps;
    const cluster = r.markers.find((m) => m.onMap && m.o.label)!;
    const clickedAt = performance.now();
    cluster.l.click!.forEach((f) => f());
    // Until the page asks the map to fit the cluster's cities (the test's timeout bounds it).
    while (r.fitBounds.length === 0) await new Promise((res) => setTimeout(res, 10));
    return { delay: r.fitBounds[0]!.at - clickedAt, points: r.fitBounds[0]!.points.length };
  });
  expect(timing.delay).toBeGreaterThanOrEqual(95);
  expect(timing.points).toBeGreaterThanOrEqual(2);
});
