import { company } from "~/lib/company";
import { assetUrl } from "./assets";

/** Light and dark logos; CSS shows the one that matches the colour scheme (no hydration mismatch). */
export function Logo() {
  return (
    <>
      <img className="logo logo-light" src={assetUrl("/images/logo.svg")} alt={company.name} width={220} height={70} />
      <img
        className="logo logo-dark"
        src={assetUrl("/images/logo-dark.svg")}
        alt={company.name}
        width={220}
        height={70}
        loading="lazy"
      />
    </>
  );
}
