import type { z } from "~/lib/zod";
import type { FormIdentity } from "../identity";
import type { employmentSchema } from "./schema";

/**
 * The employment application (its view: ./Form.tsx; its handler:
 * ./handle.server.ts). The SSN is never sent back: not re-rendered after a
 * refusal, not in hydration data, so never in a cached document.
 */
export const employmentIdentity = {
  id: "employment",
  secretFields: ["ssn"] satisfies (keyof z.input<typeof employmentSchema>)[],
  secretsNotice: "For your security, the Social Security number is not kept: please enter it again.",
} satisfies FormIdentity;
