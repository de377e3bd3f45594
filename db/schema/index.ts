export * from "./content";
export * from "./shop";
export * from "./forms";
export * from "./payments";
export * from "./invoices";
