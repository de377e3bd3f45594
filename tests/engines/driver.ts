/**
 * The three-engine smoke suite's one driver-neutral layer (docs/decisions/070-three-engines.md):
 * the few things a flow does to a page, written once, with one adapter per engine (firefox.ts:
 * puppeteer-core over WebDriver BiDi; webkit.ts: webdriverio over WebKitWebDriver). A flow
 * (flows/*.ts) names what a visitor sees — a label, a button's words, a region — never an engine.
 *
 * Elements are found in the page by one script (`locate`, below) in both engines, so "the field
 * labelled Email" means the same thing in Firefox and in WebKit; each adapter then acts on the
 * element with its engine's own input (real clicks and key presses, not DOM events).
 */

/**
 * An element: a CSS selector, or a label's words, or a CSS selector whose text contains some words;
 * inside `within` (a CSS selector, or one with words its element contains: "the cart line of this product").
 */
export type Target = string | TargetSpec;
export type TargetSpec = {
  css?: string;
  text?: string;
  label?: string;
  within?: string | { css: string; text: string };
};

export type Focused = { className: string; top: number; bottom: number; viewHeight: number };

/** The page-side reading of `Driver.focused`. */
export const FOCUSED_IN_PAGE = `(() => { const el = document.activeElement; if (!el || el === document.body) return null; const box = el.getBoundingClientRect(); return { className: String(el.className), top: box.top, bottom: box.bottom, viewHeight: innerHeight }; })()`;

export interface Driver {
  readonly engine: "firefox" | "webkit";
  /** Opens a path of the site; a page that runs the app returns once it has hydrated (`<html data-hydrated>`). */
  goto(path: string): Promise<void>;
  /** Scrolls the element to the middle of the view (clear of the sticky header and the call bar) and clicks it. */
  click(target: Target): Promise<void>;
  /** Replaces the field's value, typed key by key as a visitor types it (masks see every key). */
  fill(target: Target, value: string): Promise<void>;
  /** Chooses a native select's option by the words it shows. */
  select(target: Target, option: string): Promise<void>;
  /** The element's text as rendered (innerText), once it is there. */
  text(target: Target): Promise<string>;
  /** An attribute of the element (`value` reads the field's current value). */
  attr(target: Target, name: string): Promise<string | null>;
  /** Waits until the element is there and rendered (or, with `gone`, until it is not). */
  waitFor(target: Target, options?: { gone?: boolean; timeout?: number }): Promise<void>;
  /** The view as the visitor sees it, with `target` scrolled to its top when given. */
  screenshot(file: string, target?: Target): Promise<void>;
  /** The page's own width and height in CSS pixels (the browser's window chrome not counted). */
  setViewport(width: number, height: number): Promise<void>;
  /** The address the page is at now. */
  url(): Promise<string>;
  /** What has focus (its class list) and where it sits in the view, in CSS pixels; null: nothing. */
  focused(): Promise<Focused | null>;
  close(): Promise<void>;
}

export function spec(target: Target): TargetSpec {
  return typeof target === "string" ? { css: target } : target;
}

export function describe(target: Target): string {
  const t = spec(target);
  return [
    t.within ? `${typeof t.within === "string" ? t.within : `${t.within.css} with "${t.within.text}"`} ›` : "",
    t.label ? `the field labelled "${t.label}"` : (t.css ?? "*"),
    t.text ? `with "${t.text}"` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * Runs in the page (serialized by both adapters; self-contained): the first rendered element
 * matching `t`, or null. Open shadow roots are searched too (the spam check's widget).
 * - `label`: the control of a <label> whose words (its aria-hidden parts, such as the required
 *   mark, left out) are exactly these, or an element whose aria-label is;
 * - `css` (default `*`) with `text`: the elements whose rendered text contains the words, the
 *   innermost first (a button, not the form around it).
 */
export function locate(t: TargetSpec): Element | null {
  const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const all = (root: Document | Element | ShadowRoot, selector: string): Element[] => {
    const found = Array.from(root.querySelectorAll(selector));
    for (const el of Array.from(root.querySelectorAll("*")))
      if (el.shadowRoot) found.push(...all(el.shadowRoot, selector));
    return found;
  };
  // A hidden input is the form's, never drawn; anything else must be drawn: not in a closed
  // <details>, not display:none or visibility:hidden, nor under content-visibility:hidden.
  const rendered = (el: Element) => {
    if (el instanceof HTMLInputElement && el.type === "hidden") return true;
    if (typeof el.checkVisibility === "function")
      return el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: false } as CheckVisibilityOptions);
    return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const labelWords = (label: Element) => {
    const copy = label.cloneNode(true) as Element;
    for (const hidden of Array.from(copy.querySelectorAll('[aria-hidden="true"]'))) hidden.remove();
    return norm(copy.textContent);
  };
  let roots: (Document | Element)[] = [document];
  if (t.within) {
    const within = typeof t.within === "string" ? { css: t.within, text: "" } : t.within;
    roots = all(document, within.css).filter(
      (el) => rendered(el) && norm((el as HTMLElement).innerText ?? el.textContent).includes(within.text),
    );
  }
  let candidates: Element[] = [];
  for (const root of roots) {
    if (t.label) {
      for (const label of all(root, "label"))
        if (labelWords(label) === t.label) {
          const control = (label as HTMLLabelElement).control;
          if (control) candidates.push(control);
        }
      for (const el of all(root, "[aria-label]"))
        if (norm(el.getAttribute("aria-label")) === t.label) candidates.push(el);
    } else candidates.push(...all(root, t.css ?? "*"));
  }
  if (t.text !== undefined) {
    const words = t.text;
    candidates = candidates.filter((el) => norm((el as HTMLElement).innerText ?? el.textContent).includes(words));
    // The innermost: drop any candidate that contains another.
    candidates = candidates.filter((el) => !candidates.some((other) => other !== el && el.contains(other)));
  }
  return candidates.find(rendered) ?? null;
}

/** Runs in the page: brings the element to the middle of the view (no smooth scrolling, which would move it under a click). */
export function centre(el: Element): void {
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" as ScrollBehavior });
}

/** Runs in the page: brings the element to the top of the view, under the sticky header. */
export function toTop(el: Element): void {
  el.scrollIntoView({ block: "start", behavior: "instant" as ScrollBehavior });
  const header = document.querySelector("header");
  const sticky = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().height : 0;
  window.scrollBy({ top: -(sticky + 12), behavior: "instant" as ScrollBehavior });
}

/** Runs in the page: the value of the option of a <select> that shows these words, or null. */
export function optionValue(el: Element, words: string): string | null {
  const options = Array.from((el as HTMLSelectElement).options ?? []);
  const option = options.find((o) => o.text.replace(/\s+/g, " ").trim() === words);
  return option ? option.value : null;
}

/** Runs in the page: readies a field to be typed over (its text selected, so the first key replaces it). */
export function selectContents(el: Element): void {
  const field = el as HTMLInputElement;
  field.focus();
  if (typeof field.select === "function") field.select();
}

/**
 * A call of one of the functions above, as the text of an expression to evaluate in the page. Both
 * adapters send the page text, not functions: tsx wraps named functions in a `__name` helper that the
 * page does not have, so each call carries the helpers' source with a stand-in for it.
 */
export function inPage(call: string, ...args: unknown[]): string {
  const library = [locate, centre, toTop, optionValue, selectContents].map((fn) => fn.toString()).join("\n");
  return `(() => { var __name = (fn) => fn; ${library}\nreturn ${call}(${args.map((a) => JSON.stringify(a)).join(", ")}); })()`;
}

/** Polls `check` until it gives something other than undefined, or fails after `timeout` ms saying `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeout = 15_000): Promise<T> {
  const end = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end)
      throw new Error(
        `Timed out after ${timeout} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
