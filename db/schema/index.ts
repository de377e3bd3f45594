export * from "./content";
export * from "./shop";
export * from "./forms";
export * from "./payments";
export * from "./invoices";
export * from "./mail";
export * from "./rate-limits";
export * from "./captcha";
