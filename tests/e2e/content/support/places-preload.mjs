// Preloaded (node --import) into a server process started by google.spec.ts:
// msw answers Google's Place Details endpoint with the shared fixture, and
// every request it receives is appended to PLACES_MOCK_LOG.
import { appendFileSync, readFileSync } from "node:fs";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";

const fixture = JSON.parse(readFileSync(new URL("../../../mocks/places-details.json", import.meta.url), "utf8"));

setupServer(
  http.get("https://maps.googleapis.com/maps/api/place/details/json", ({ request }) => {
    if (process.env.PLACES_MOCK_LOG) appendFileSync(process.env.PLACES_MOCK_LOG, `${request.url}\n`);
    return HttpResponse.json(fixture);
  }),
).listen({ onUnhandledRequest: "bypass" });
