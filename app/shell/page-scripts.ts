import type { UIMatch } from "react-router";

/**
 * A route's word on whether its page needs the app's JavaScript (docs/decisions/079). A page
 * without a form of its own is whole as HTML and CSS, so the root renders no `<Scripts/>` for
 * it: no module script, no modulepreload. `scripts` answers from the page's loader data (a
 * content page with the quote form or the interactive map needs them); a route without the
 * handle gets the scripts.
 */
export type ScriptsHandle = { scripts?: (loaderData: unknown) => boolean };

export const NO_SCRIPTS: ScriptsHandle = { scripts: () => false };

/** Whether the page of these matches runs the app (its leaf route decides). */
export function pageRunsScripts(matches: readonly UIMatch[]): boolean {
  const leaf = matches.at(-1);
  const rule = (leaf?.handle as ScriptsHandle | undefined)?.scripts;
  return rule ? rule(leaf!.data) : true;
}
