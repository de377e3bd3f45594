import { contactForm } from "../contact/handle.server";
import { formAction, formBootstrap, type ActionArgs } from "../actions.server";
import { simpleQuoteForm } from "./handle.server";

/**
 * Embedding the lead forms on a page owned by another capability (product
 * pages, the home page).
 *
 *   // app/routes/residential-garage-doors.tsx
 *   import { formBootstrap, simpleQuoteAction } from "~/forms/quote/embed.server";
 *   import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
 *   import { lazyForm } from "~/forms/ui/lazy-form";   // the form's code loads with the form
 *   const SimpleQuoteForm = lazyForm(() => import("~/forms/quote/Form").then((m) => m.SimpleQuoteForm));
 *   import formsCss from "~/forms/forms.css?url";
 *
 *   export const links = () => [{ rel: "stylesheet", href: formsCss }];
 *   export async function loader() { return { …yourData, leadForm: formBootstrap() }; }
 *   export const action = simpleQuoteAction;          // no-JS errors re-render this page
 *   export const clientAction = leadFormClientAction; // optional: network errors in place
 *   export const shouldRevalidate = leadFormShouldRevalidate; // optional: no reload after a send
 *   <SimpleQuoteForm quoteType="Residential" bootstrap={loaderData.leadForm} />
 *
 * The contact form works the same way with `contactAction`, or posts to
 * /contact with <ContactForm bootstrap={…} action="/contact" /> (without
 * JavaScript the visitor then lands on /contact with the result).
 * One embedded form per host action: a page with both forms posts the
 * contact form to /contact.
 */
export { formBootstrap };

export function simpleQuoteAction(args: ActionArgs) {
  return formAction(simpleQuoteForm, args);
}

export function contactAction(args: ActionArgs) {
  return formAction(contactForm, args);
}
