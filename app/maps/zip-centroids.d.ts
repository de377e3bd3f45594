// The US ZIP centroids, built from the zipcodes package at build time (scripts/zip-centroids.ts).
declare module "virtual:zip-centroids" {
  const table: string;
  export default table;
}
