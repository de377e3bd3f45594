import { useEffect } from "react";
import { useLocation } from "react-router";

/**
 * Scroll-in animation (SPEC §9: 1000 ms, once). Elements marked `data-reveal`
 * that start below the fold fade in once when they scroll into view. Nothing
 * is hidden without JavaScript, above the fold, or with reduced motion.
 */
export function useScrollReveal() {
  const location = useLocation();
  useEffect(() => {
    if (typeof IntersectionObserver === "undefined") return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          entry.target.setAttribute("data-reveal", "in");
          observer.unobserve(entry.target);
        }
      },
      { rootMargin: "0px 0px -10% 0px" },
    );
    const fold = window.innerHeight;
    document.querySelectorAll<HTMLElement>("[data-reveal='']").forEach((el) => {
      if (el.getBoundingClientRect().top < fold) {
        el.setAttribute("data-reveal", "done");
        return;
      }
      el.setAttribute("data-reveal", "pending");
      observer.observe(el);
    });
    return () => observer.disconnect();
  }, [location.pathname]);
}
