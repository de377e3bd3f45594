import type { City } from "./config";

export type MapCity = { name: string; x: number; y: number; circle: string; label: City["label"] };
export type MapLabel = { name: string; x: number; y: number; kind: "water" | "region" };

/** The server-drawn map as the page receives it: path strings and positions only. */
export type ServiceAreaMapData = {
  width: number;
  height: number;
  /** Neighbouring states, drawn faintly. */
  neighbours: string[];
  michigan: string;
  cities: MapCity[];
  labels: MapLabel[];
  radiusMiles: number;
};
