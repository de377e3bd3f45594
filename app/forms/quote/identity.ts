import { MAX_PHOTO_BYTES, MAX_QUOTE_PHOTOS, TOO_MANY_QUOTE_PHOTOS } from "../options";
import type { FormIdentity } from "../identity";

/** The full quote form of /request-quote?type=…, with photos (view: ./Form.tsx QuoteForm; handler: ./handle.server.ts). */
export const fullQuoteIdentity = {
  id: "quote",
  uploads: {
    field: "photos",
    aliases: ["photo"],
    maxFiles: MAX_QUOTE_PHOTOS,
    maxBytes: MAX_PHOTO_BYTES,
    tooManyMessage: TOO_MANY_QUOTE_PHOTOS,
  },
} satisfies FormIdentity;

/** The shorter quote form embedded on product pages, no photos (view: ./Form.tsx SimpleQuoteForm). */
export const simpleQuoteIdentity = { id: "simple-quote" } satisfies FormIdentity;
