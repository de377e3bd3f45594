import { formAction, formBootstrap, type ActionArgs } from "../actions.server";
import { simpleQuoteForm } from "./handle.server";

/**
 * The simple quote form embedded on a page owned by another capability: the
 * product pages (DECISIONS 9), served by app/routes/product-page.tsx.
 *
 *   - the loader puts `formBootstrap()` in the page's data
 *     (app/content/page-data.server.ts, for a page with a `quote-form` section);
 *   - the route's action is `simpleQuoteAction`, so without JavaScript the same
 *     page re-renders with the result; its `clientAction` and `shouldRevalidate`
 *     are leadFormClientAction and leadFormShouldRevalidate (~/forms/client-action);
 *   - the page renders <QuoteFormSlot> (app/content/sections/QuoteFormSlot.tsx),
 *     which loads the form's code with the form (lazyForm, ~/forms/ui/lazy-form)
 *     and gives it the bootstrap; the form's styles come in with
 *     app/content/product-page.css.
 *
 * The contact form is not embedded anywhere: it lives on /contact. Another page
 * can show it with <ContactForm bootstrap={…} action="/contact" />: it then
 * posts to /contact (without JavaScript the visitor lands there with the result).
 */
export { formBootstrap };

export function simpleQuoteAction(args: ActionArgs) {
  return formAction(simpleQuoteForm, args);
}
