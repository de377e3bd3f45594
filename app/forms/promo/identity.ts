import type { FormIdentity } from "../identity";

/** The discount sign-up (its view: ./Form.tsx; its handler: ./handle.server.ts). */
export const promoIdentity = { id: "promo" } satisfies FormIdentity;
