import { z } from "zod";
import { cardLabels, cardShape, refineCard } from "../card-schema";
import { commercialServiceSchema, serviceLabels } from "../service/schema";

/**
 * SPEC §3 Service request (residential): the commercial fields plus the card
 * (§5 Residential service extras). `total` and `client_ip` are accepted from
 * the API's clients and never read: the price is the server's
 * (~/payments/service-price.ts), the IP the configured proxy header's.
 * Client-safe: Conform runs it in the browser, the pipeline on the server.
 */
export const residentialLabels = { ...serviceLabels, ...cardLabels } as const;

export const residentialServiceSchema = commercialServiceSchema
  .extend({
    ...cardShape,
    total: z.string().max(20).optional(),
    client_ip: z.string().max(100).optional(),
  })
  .superRefine(refineCard);

export type ResidentialServiceInput = z.infer<typeof residentialServiceSchema>;
