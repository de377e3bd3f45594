import type { FormIdentity } from "../identity";

/** The contact form (its view: ./Form.tsx; its handler: ./handle.server.ts). */
export const contactIdentity = { id: "contact" } satisfies FormIdentity;
