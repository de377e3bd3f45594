// zipcodes ships no types: the part ./coverage.server.ts uses.
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
