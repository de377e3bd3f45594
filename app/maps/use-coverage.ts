import { useEffect } from "react";
import { useFetcher } from "react-router";
import { zip5, type Coverage } from "./coverage";

/** Where the page asks (app/routes/api/service-area.ts); the ZIP data stays on the server. */
const SERVICE_AREA_API = "/api/service-area";

/**
 * The service area's answer for a ZIP as it is typed (with JavaScript): asked once five digits
 * are in (a GET the browser may cache), null until it answers for what is typed now. The booking's
 * ZIP and the checkout's installation ZIP say it under their field; the server checks again
 * before any charge.
 */
export function useCoverage(typed: string): Coverage | null {
  const fetcher = useFetcher<Coverage>();
  const zip = zip5(typed);
  const { load } = fetcher;
  useEffect(() => {
    if (zip) void load(`${SERVICE_AREA_API}?zip=${zip}`);
  }, [zip, load]);
  return zip && fetcher.data?.zip === zip ? fetcher.data : null;
}
