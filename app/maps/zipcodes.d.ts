// zipcodes ships no types: the part scripts/zip-centroids.ts and the coverage test use.
declare module "zipcodes" {
  export type ZipCode = {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: "US" | "Canada";
  };
  const zipcodes: { lookup(zip: string | number): ZipCode | undefined };
  export default zipcodes;
}
