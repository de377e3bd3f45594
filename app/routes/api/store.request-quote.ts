import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import { fullQuoteForm } from "~/forms/quote/handle.server";
import type { Route } from "./+types/store.request-quote";

/**
 * POST /api/store/request-quote/commercial and /residential (SPEC §7):
 * multipart with a 'data' JSON field and repeated 'photo' files; the quote
 * type comes from the path.
 */
export function action(args: Route.ActionArgs) {
  const type = args.params.type;
  if (type !== "commercial" && type !== "residential") {
    return Response.json({ success: false, message: "Unknown quote type." }, { status: 404 });
  }
  return apiFormAction(fullQuoteForm, args, {
    overrides: { quote_type: type === "commercial" ? "Commercial" : "Residential" },
  });
}

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
