import { lazy, type ComponentType } from "react";

/**
 * A lead form whose code (Mantine inputs, Conform, zod and the form's schema)
 * is not preloaded with the page's modules but fetched when the form first
 * renders, so it no longer competes with the page's CSS, banner image and
 * framework code before the first paint (docs/decisions/014-form-code-loads-with-form.md,
 * after 006-below-the-fold-javascript-waits.md).
 *
 * Deliberately without a <Suspense> boundary:
 * - on the server, the form is part of the shell, so the document still carries
 *   the complete form inline (a boundary would let React send a large form as
 *   a hidden, script-revealed segment, which breaks the no-JS path);
 * - on the first load, hydration waits for the chunk while the server HTML
 *   stays on screen and works as a plain form (DECISIONS 8);
 * - on a client navigation, the transition keeps the previous page until the
 *   chunk has arrived (no empty flash, no layout shift).
 *
 * `load` resolves to the form component, e.g.
 * `lazyForm(() => import("~/forms/contact/Form").then((m) => m.ContactForm))`.
 */
export function lazyForm<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Form = lazy(() => load().then((component) => ({ default: component })));
  function LazyForm(props: P) {
    return <Form {...props} />;
  }
  return LazyForm;
}
