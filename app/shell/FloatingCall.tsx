import { company } from "~/lib/company";
import { PhoneIcon } from "./icons";

/** DECISIONS 6: the persistent call button on every route (its placement: shell.css). */
export function FloatingCall() {
  return (
    <aside aria-label="Call us">
      <a href={company.phone.href} className="floating-call" aria-label={`Call us ${company.phone.display}`}>
        <PhoneIcon size={22} />
        <span className="floating-call-text">Call us {company.phone.display}</span>
      </a>
    </aside>
  );
}
