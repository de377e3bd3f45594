import type { ShouldRevalidateFunction } from "react-router";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { loadRequestServicePage } from "~/booking/request-service-page.server";
import { RequestServicePage } from "~/booking/RequestServicePage";
import { serviceType } from "~/booking/service-type";
import { formAction } from "~/forms/actions.server";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import formsCss from "~/forms/forms.css?url";
import { isFormActionData } from "~/forms/result";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { formPageHeaders } from "~/http/cache-control";
import { pageHead } from "~/shell/page-head";
import type { ScriptsHandle } from "~/shell/page-scripts";
import type { Route } from "./+types/request-service";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Request Service",
    description:
      "Schedule a service visit for your home or business: garage door repairs, openers, commercial doors and loading docks.",
    path: "/request-service",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

// The chooser, the commercial request or the residential booking (with its calendar), by ?type.
export const loader = ({ request }: Route.LoaderArgs) => loadRequestServicePage(request);

/** The chooser (no type yet) is links only: no JavaScript (app/shell/page-scripts.ts). */
export const handle: ScriptsHandle = { scripts: (data) => Boolean((data as { type?: unknown } | undefined)?.type) };

// ?type=residential books and pays; every other post is the commercial request (as before the residential form existed).
export const action = (args: Route.ActionArgs) =>
  serviceType(new URL(args.request.url)) === "residential"
    ? formAction(residentialServiceForm, args)
    : formAction(commercialServiceForm, args);
export const clientAction = leadFormClientAction;
// The residential calendar is read again after a refused booking (a slot may have filled meanwhile).
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  isFormActionData(args.actionResult) &&
  args.actionResult.status === "error" &&
  serviceType(args.currentUrl) === "residential"
    ? true
    : leadFormShouldRevalidate(args);

export default function RequestService({ loaderData }: Route.ComponentProps) {
  return <RequestServicePage loaderData={loaderData} />;
}
