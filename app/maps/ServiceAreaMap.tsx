import { useEffect, useRef, useState } from "react";
import type { ServiceAreaMapData } from "./types";

type LoadState = "offline" | "loading" | "loaded" | "error";

export const MAPS_FAILURE_MESSAGE =
  "Google Maps could not be loaded: check the GOOGLE_MAPS_API_KEY and the network connection. Showing the offline map instead.";

/**
 * The service-area map. The server-drawn SVG is always in the page (it works
 * without JavaScript); when the server passes a Maps key, the interactive
 * Google map replaces it once loaded. While it loads the map shows
 * 'Loading...'; if it fails, a console message explains why and the SVG stays.
 */
export function ServiceAreaMap({ map, mapsKey }: { map: ServiceAreaMapData; mapsKey?: string }) {
  const [state, setState] = useState<LoadState>("offline");
  const googleRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!mapsKey || !googleRef.current) return;
    let active = true;
    const el = googleRef.current;
    setState("loading");
    import("./google-map.client")
      .then((m) => m.showGoogleMap(el, mapsKey))
      .then(
        () => active && setState("loaded"),
        (error: unknown) => {
          console.error(`${MAPS_FAILURE_MESSAGE} (${error instanceof Error ? error.message : String(error)})`);
          if (active) setState("error");
        },
      );
    return () => {
      active = false;
    };
  }, [mapsKey]);

  const names = map.cities.map((c) => c.name);
  return (
    <div className="service-map" data-state={state} data-testid="service-map">
      <svg
        className="service-map-svg"
        viewBox={`0 0 ${map.width} ${map.height}`}
        width={map.width}
        height={map.height}
        role="img"
        aria-labelledby="service-map-svg-title"
        aria-describedby="service-map-svg-desc"
      >
        <title id="service-map-svg-title">Map of our Michigan service area</title>
        <desc id="service-map-svg-desc">
          {`A map of Michigan centred on Lansing with a ${map.radiusMiles}-mile service circle around ${names.slice(0, -1).join(", ")} and ${names.at(-1)}.`}
        </desc>
        <rect className="map-water" width={map.width} height={map.height} />
        <g className="map-neighbours">
          {map.neighbours.map((d, i) => (
            <path key={i} d={d} />
          ))}
        </g>
        <path className="map-michigan" d={map.michigan} />
        <g className="map-labels" aria-hidden="true">
          {map.labels.map((l) => (
            <text key={l.name} x={l.x} y={l.y} className={`map-label map-label--${l.kind}`} textAnchor="middle">
              {l.name}
            </text>
          ))}
        </g>
        <g className="map-radii">
          {map.cities.map((c) => (
            <path key={c.name} className="map-radius" d={c.circle} data-city={c.name} />
          ))}
        </g>
        <g className="map-markers">
          {map.cities.map((c) => (
            <g key={c.name} className="map-marker" data-city={c.name} transform={`translate(${c.x} ${c.y})`}>
              <g className="map-marker-body">
                <path className="map-pin" d="M0 0c-2-7-10-11-10-19a10 10 0 0 1 20 0c0 8-8 12-10 19z" />
                <circle className="map-pin-dot" cx={0} cy={-19} r={3.6} />
                <text className="map-city" {...labelPosition(c.label)}>
                  {c.name}
                </text>
              </g>
            </g>
          ))}
        </g>
      </svg>
      {mapsKey ? (
        <div ref={googleRef} className="service-map-google" aria-label="Interactive service area map" />
      ) : null}
      {state === "loading" ? (
        <p className="service-map-loading" role="status">
          Loading...
        </p>
      ) : null}
    </div>
  );
}

function labelPosition(side: "right" | "left" | "left-low" | "above" | "below") {
  switch (side) {
    case "left-low":
      return { x: -13, y: 5, textAnchor: "end" as const };
    case "left":
      return { x: -14, y: -14, textAnchor: "end" as const };
    case "above":
      return { x: 0, y: -34, textAnchor: "middle" as const };
    case "below":
      return { x: 0, y: 18, textAnchor: "middle" as const };
    default:
      return { x: 14, y: -14, textAnchor: "start" as const };
  }
}
