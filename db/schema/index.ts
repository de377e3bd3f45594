export * from "./content";
export * from "./shop";
