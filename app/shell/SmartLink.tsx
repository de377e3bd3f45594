import { SiteLink } from "./SiteLink";
import type { NavLink } from "./navigation";

/** A menu's link: a page of the site, or another site in a new tab. */
export function SmartLink({ link, className, onClick }: { link: NavLink; className?: string; onClick?: () => void }) {
  if (link.external) {
    return (
      <a href={link.to} className={className} target="_blank" rel="noopener noreferrer" onClick={onClick}>
        {link.label}
      </a>
    );
  }
  return (
    <SiteLink to={link.to} className={className} onClick={onClick}>
      {link.label}
    </SiteLink>
  );
}
