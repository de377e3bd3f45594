import { redirect } from "react-router";

/** DECISIONS 2: the Service Areas text's /contact-us answers 301 → /contact. */
export function loader() {
  return redirect("/contact", 301);
}
