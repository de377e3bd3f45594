import type { AtRule, Node, PluginCreator, Rule } from "postcss";

/**
 * `<html data-mantine-color-scheme="auto">` means "follow the operating
 * system" in CSS alone, so a page follows a dark system without JavaScript
 * (docs/decisions/062-colour-mode-and-carousel.md). Every rule whose selector
 * names `[data-mantine-color-scheme="dark"]` (or `'light'`) — Mantine's
 * variables and components, the shell's, the forms', the shop's — gets a twin
 * right after it, for `"auto"`, inside `@media (prefers-color-scheme: dark)`
 * (or `light`). The twin has the same specificity and stands next to the
 * original, so the cascade is the one the explicit scheme gets. Selectors of a
 * rule that name neither scheme are left out of its twin; the bare
 * `[data-mantine-color-scheme]` (any value) already matches "auto".
 *
 * Wired into Vite's CSS pipeline in vite.config.ts (after `@import`s are
 * inlined, so Mantine's files are covered too).
 */
const SCHEME = /\[data-mantine-color-scheme=(["']?)(light|dark)\1\]/;
/** The schemes a selector names (a fresh global expression each time: no shared lastIndex). */
const schemesOf = (selector: string) =>
  [...selector.matchAll(new RegExp(SCHEME.source, "g"))].map((match) => match[2] as "light" | "dark");
const AUTO = '[data-mantine-color-scheme="auto"]';
const MADE = Symbol("auto-color-scheme twin");

type Marked = { [MADE]?: true };

function insideTwin(node: Rule): boolean {
  for (let parent: Node | undefined = node.parent; parent; parent = parent.parent) {
    if ((parent as Marked)[MADE]) return true;
  }
  return false;
}

/** The selectors of `rule` naming `scheme`, rewritten for "auto"; the others dropped. */
export function autoSelectors(selectors: readonly string[], scheme: "light" | "dark"): string[] {
  return selectors
    .filter((selector) => {
      const named = schemesOf(selector);
      return named.length > 0 && named.every((s) => s === scheme);
    })
    .map((selector) => selector.replaceAll(new RegExp(SCHEME.source, "g"), AUTO));
}

export const autoColorScheme: PluginCreator<void> = () => ({
  postcssPlugin: "auto-color-scheme",
  OnceExit(root, { AtRule: MakeAtRule }) {
    const rules: Rule[] = [];
    root.walkRules((rule) => {
      if (SCHEME.test(rule.selector) && !insideTwin(rule)) rules.push(rule);
    });
    for (const rule of rules) {
      let after: Rule | AtRule = rule;
      for (const scheme of ["light", "dark"] as const) {
        const selectors = autoSelectors(rule.selectors, scheme);
        if (selectors.length === 0) continue;
        const media: AtRule = new MakeAtRule({ name: "media", params: `(prefers-color-scheme: ${scheme})` });
        (media as Marked)[MADE] = true;
        media.append(rule.clone({ selectors }));
        after.after(media);
        after = media;
      }
    }
  },
});
autoColorScheme.postcss = true;
