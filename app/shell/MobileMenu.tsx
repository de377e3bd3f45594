import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { company } from "~/lib/company";
import { SmartLink } from "./SmartLink";
import { SiteLink } from "./SiteLink";
import { CloseIcon, MenuIcon, PhoneIcon } from "./icons";
import { menus } from "./navigation";

/**
 * The small-screen menu: a slide-in panel built on <details>, so it opens and
 * its groups collapse with JavaScript off. With JavaScript it also closes on
 * navigation and on Escape.
 */
export function MobileMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  // Close after every navigation (a link to the page already shown too), but
  // not when the app first runs: on a slow phone the visitor may have opened
  // the panel before the scripts arrived, and it must stay open.
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (location.key === shownKey.current) return;
    shownKey.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location.key]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && ref.current?.open) {
        ref.current.open = false;
        ref.current.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <details className="mobile-menu" ref={ref}>
      <summary className="mobile-menu-toggle" aria-label="Menu">
        <span className="when-closed">
          <MenuIcon size={26} />
        </span>
        <span className="when-open">
          <CloseIcon size={26} />
        </span>
      </summary>
      <div className="mobile-backdrop" aria-hidden="true" onClick={() => ref.current && (ref.current.open = false)} />
      <nav className="mobile-panel" aria-label="Mobile">
        <SiteLink to="/" className="mobile-home">
          Home
        </SiteLink>
        {menus.map((group) => (
          <details key={group.label} className="mobile-group">
            <summary>{group.mobileLabel}</summary>
            <ul>
              {group.links.map((link) => (
                <li key={link.to}>
                  <SmartLink link={link} />
                </li>
              ))}
            </ul>
          </details>
        ))}
        <a href={company.phone.href} className="btn btn-outline btn-block">
          <PhoneIcon size={18} /> Call Now {company.phone.display}
        </a>
        <SiteLink to="/request-quote" className="btn btn-primary btn-block">
          Request Quote
        </SiteLink>
      </nav>
    </details>
  );
}
