import { useEffect, useState, type ComponentPropsWithoutRef } from "react";
import { PrefetchPageLinks, useNavigate } from "react-router";

/**
 * The shell's links (header menus, mobile panel, footer site map, banner):
 * about 90 on every page. React Router's <Link> runs some twenty hooks each
 * (path resolution, click handler, prefetch state): a measurable share of the
 * server's time to render an uncached page and of the phone's hydration
 * (docs/decisions/010-shell-links-plain-anchors.md). A SiteLink is a plain anchor instead: it works before hydration
 * and without JavaScript as any link does, and once the app runs, ONE listener
 * (`useSiteLinks`, mounted by the shell) gives all of them what <Link> gives:
 * client-side navigation on a plain left click, and the next page's modules
 * and data prefetched when the pointer rests on a link or it gets focus
 * (React Router's own <PrefetchPageLinks>). `data-discover` lets React
 * Router's lazy route discovery see them like its own links.
 *
 * Only for absolute paths inside the site; anything else is an ordinary <a>.
 */
export function SiteLink({ to, children, ...rest }: { to: string } & Omit<ComponentPropsWithoutRef<"a">, "href">) {
  return (
    <a {...rest} href={to} data-site-link="" data-discover="true">
      {children}
    </a>
  );
}

const SELECTOR = "a[data-site-link]";
const INTENT_DELAY_MS = 100;

function siteLinkOf(target: EventTarget | null): HTMLAnchorElement | null {
  const el = target instanceof Element ? target.closest(SELECTOR) : null;
  return el instanceof HTMLAnchorElement ? el : null;
}

function inSiteHref(a: HTMLAnchorElement): string | null {
  if ((a.target && a.target !== "_self") || a.hasAttribute("download")) return null;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * Mount once: client-side navigation and intent prefetch for every SiteLink.
 * Returns what to render (the prefetch links for the page the visitor is
 * about to open, or nothing).
 */
export function useSiteLinks() {
  const navigate = useNavigate();
  const [intent, setIntent] = useState<string | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onClick = (event: MouseEvent) => {
      // Same rules as <Link>: a plain, unhandled left click on an in-site link.
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.altKey ||
        event.ctrlKey ||
        event.shiftKey
      )
        return;
      const a = siteLinkOf(event.target);
      const href = a && inSiteHref(a);
      if (!href) return;
      event.preventDefault();
      void navigate(href);
    };
    const prefetchSoon = (event: Event) => {
      const a = siteLinkOf(event.target);
      const href = a && inSiteHref(a);
      if (!href) return;
      clearTimeout(timer);
      const path = href.split("#")[0]!;
      if (event.type === "touchstart") setIntent(path);
      else timer = setTimeout(() => setIntent(path), INTENT_DELAY_MS);
    };
    const cancel = (event: Event) => {
      if (siteLinkOf(event.target)) clearTimeout(timer);
    };
    document.addEventListener("click", onClick);
    document.addEventListener("mouseover", prefetchSoon);
    document.addEventListener("focusin", prefetchSoon);
    document.addEventListener("touchstart", prefetchSoon, { passive: true });
    document.addEventListener("mouseout", cancel);
    document.addEventListener("focusout", cancel);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("click", onClick);
      document.removeEventListener("mouseover", prefetchSoon);
      document.removeEventListener("focusin", prefetchSoon);
      document.removeEventListener("touchstart", prefetchSoon);
      document.removeEventListener("mouseout", cancel);
      document.removeEventListener("focusout", cancel);
    };
  }, [navigate]);

  return intent && intent !== window.location.pathname + window.location.search ? (
    <PrefetchPageLinks page={intent} />
  ) : null;
}
