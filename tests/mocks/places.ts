import { http, HttpResponse } from "msw";
import { PLACES_DETAILS_URL } from "~/reviews/places.server";
import fixture from "./places-details.json";

/**
 * msw stand-in for Google's Place Details endpoint (the only third party the
 * reviews code talks to). `mode` switches between a good answer and failures;
 * `requests` records what the server asked for.
 */
export type PlacesMock = {
  mode: "ok" | "http-500" | "denied" | "network";
  requests: URL[];
};

export function placesHandlers(state: PlacesMock) {
  return [
    http.get(PLACES_DETAILS_URL, ({ request }) => {
      state.requests.push(new URL(request.url));
      switch (state.mode) {
        case "ok":
          return HttpResponse.json(fixture);
        case "http-500":
          return new HttpResponse("upstream error", { status: 500 });
        case "denied":
          return HttpResponse.json({ status: "REQUEST_DENIED", error_message: "The provided API key is invalid." });
        case "network":
          return HttpResponse.error();
      }
    }),
  ];
}

export const placesFixture = fixture;
