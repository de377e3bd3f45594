// us-atlas ships TopoJSON without types.
declare module "us-atlas/states-10m.json" {
  import type { GeometryCollection, Topology } from "topojson-specification";
  const topology: Topology<{ states: GeometryCollection<{ name: string }>; nation: GeometryCollection }>;
  export default topology;
}
