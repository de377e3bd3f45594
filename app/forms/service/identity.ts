import { MAX_PHOTO_BYTES, MAX_SERVICE_PHOTOS, TOO_MANY_SERVICE_PHOTOS } from "../options";
import type { FormIdentity } from "../identity";

/** The commercial service request, with photos (view: ./Form.tsx; handler: ./handle.server.ts). */
export const commercialServiceIdentity = {
  id: "service-commercial",
  uploads: {
    field: "photo",
    aliases: ["photos"],
    maxFiles: MAX_SERVICE_PHOTOS,
    maxBytes: MAX_PHOTO_BYTES,
    tooManyMessage: TOO_MANY_SERVICE_PHOTOS,
  },
} satisfies FormIdentity;
