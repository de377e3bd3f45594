import { formBootstrap, paidFormBootstrap } from "~/forms/actions.server";
import { todayInDetroit } from "~/lib/company-time";
import { residentialAvailability } from "./availability.server";
import { serviceType } from "./service-type";

/**
 * What /request-service shows: which form (`type`), its bootstrap and, for the residential
 * booking, the calendar's availability: the places taken from today on (fresh on every render, a
 * refused post's included). `today`: the commercial form's first bookable day, from the server
 * (app/forms/service/Form.tsx says why).
 */
export async function loadRequestServicePage(request: Request) {
  const type = serviceType(new URL(request.url));
  if (type === "residential")
    return {
      type,
      form: await paidFormBootstrap(request),
      availability: await residentialAvailability(),
      today: todayInDetroit(),
    };
  return { type, form: formBootstrap(), availability: null, today: todayInDetroit() };
}

/** What the request-service loader gives its view (./RequestServicePage.tsx). */
export type RequestServicePageData = Awaited<ReturnType<typeof loadRequestServicePage>>;
