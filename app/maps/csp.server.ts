import { env } from "~/lib/env.server";
import { addCspAllowances } from "~/lib/startup.server";

/**
 * The sources the Maps JavaScript API needs, allowed only when the operator
 * configured GOOGLE_MAPS_API_KEY (scripts it adds are trusted through the
 * nonce and 'strict-dynamic').
 */
addCspAllowances(() =>
  env().GOOGLE_MAPS_API_KEY
    ? {
        scriptSrc: ["https://maps.googleapis.com"],
        connectSrc: ["https://maps.googleapis.com", "https://*.googleapis.com", "https://*.gstatic.com"],
        imgSrc: [
          "https://maps.googleapis.com",
          "https://maps.gstatic.com",
          "https://*.googleapis.com",
          "https://*.gstatic.com",
          "https://*.ggpht.com",
        ],
        styleSrc: ["https://fonts.googleapis.com"],
        workerSrc: ["'self'", "blob:"],
      }
    : {},
);

/** The Maps JavaScript API key for the browser, when configured. */
export function mapsBrowserKey(): string | undefined {
  return env().GOOGLE_MAPS_API_KEY;
}
