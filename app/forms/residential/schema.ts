import { z } from "zod";
import { INVALID_ZIP_MESSAGE, ZIP_PATTERN } from "~/maps/coverage";
import { cardLabels, cardShape, refineCard } from "../card-schema";
import { requiredText } from "../schema-helpers";
import { commercialServiceSchema, serviceLabels } from "../service/schema";

/**
 * SPEC §3 Service request (residential): the commercial fields plus the card
 * (§5 Residential service extras). `total` and `client_ip` are accepted from
 * the API's clients and never read: the price is the server's
 * (~/payments/service-price.ts), the IP the configured proxy header's. The
 * ZIP is a US one (five digits, or ZIP+4): the booking is refused before any
 * charge outside the service area (./service-area.server.ts, DECISIONS 30).
 * Client-safe: Conform runs it in the browser, the pipeline on the server.
 */
export const residentialLabels = { ...serviceLabels, ...cardLabels } as const;

export const residentialServiceSchema = commercialServiceSchema
  .extend({
    zip: requiredText(serviceLabels.zip, 12).regex(ZIP_PATTERN, INVALID_ZIP_MESSAGE),
    ...cardShape,
    total: z.string().max(20).optional(),
    client_ip: z.string().max(100).optional(),
  })
  .superRefine(refineCard);

export type ResidentialServiceInput = z.infer<typeof residentialServiceSchema>;
