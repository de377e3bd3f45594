import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { NavLink as RouterNavLink, useLocation } from "react-router";
import { company } from "~/lib/company";
import { ColorSchemeToggle } from "./ColorSchemeToggle";
import { ChevronDownIcon } from "./icons";
import { Logo } from "./Logo";
import { MobileMenu } from "./MobileMenu";
import { SiteLink } from "./SiteLink";
import { SmartLink } from "./SmartLink";
import { menus, topBarLinks, type NavGroup } from "./navigation";

export function TopBar({ shopUrl }: { shopUrl?: string }) {
  return (
    <div className="topbar" data-testid="topbar">
      <div className="shell-container topbar-inner">
        <a className="topbar-phone" href={company.phone.href}>
          Call {company.phone.display}
        </a>
        <nav aria-label="Quick actions" className="topbar-actions">
          {topBarLinks(shopUrl).map((link) => (
            <SmartLink
              key={link.label}
              link={link}
              className={link.mobile ? "topbar-btn" : "topbar-btn topbar-btn--desktop"}
            />
          ))}
        </nav>
      </div>
    </div>
  );
}

/**
 * A disclosure menu: a button that toggles a list of links. Without JavaScript
 * the list opens on hover and on keyboard focus (CSS :focus-within).
 */
function DesktopMenu({ group }: { group: NavGroup }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const ref = useRef<HTMLLIElement>(null);
  const location = useLocation();

  useEffect(() => setOpen(false), [location.pathname, location.search]);
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        ref.current?.querySelector("button")?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <li
      ref={ref}
      className="nav-item"
      data-open={open || undefined}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        type="button"
        className="nav-trigger"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {group.label}
        <ChevronDownIcon size={16} />
      </button>
      <ul id={id} className="nav-dropdown" aria-label={group.label}>
        {group.links.map((link) => (
          <li key={link.to}>
            <SmartLink link={link} className="nav-dropdown-link" onClick={() => setOpen(false)} />
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * The site header: the top bar, the logo, the desktop menus, and the actions every page has
 * (Request Quote, the cart with its count, the colour scheme, the phone menu). `cart` is the shop's
 * link to the cart with its count (app/shop/CartLink.tsx), handed in by root.tsx; with an external
 * shop (SHOP_URL) there is no cart here to link to.
 */
export function Header({ shopUrl, cart }: { shopUrl?: string; cart: ReactNode }) {
  return (
    <header className="site-header">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopBar shopUrl={shopUrl} />
      <div className="mainbar">
        <div className="shell-container mainbar-inner">
          <SiteLink to="/" className="logo-link" aria-label={`${company.name} home`}>
            <Logo />
          </SiteLink>
          <nav aria-label="Main" className="desktop-nav">
            <ul className="nav-list">
              <li className="nav-item">
                <RouterNavLink to="/" end className="nav-trigger nav-home">
                  Home
                </RouterNavLink>
              </li>
              {menus.map((group) => (
                <DesktopMenu key={group.label} group={group} />
              ))}
            </ul>
          </nav>
          <div className={shopUrl ? "mainbar-actions without-cart" : "mainbar-actions"}>
            <SiteLink to="/request-quote" className="btn btn-primary request-quote-btn">
              Request Quote
            </SiteLink>
            {shopUrl ? null : cart}
            <ColorSchemeToggle />
            <MobileMenu />
          </div>
        </div>
      </div>
    </header>
  );
}
