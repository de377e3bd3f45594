import { TAX_NOTE } from "./pricing";

/** Under a shop total (DECISIONS 36): installation and sales tax are in it; the terms say more. */
export function TaxNote() {
  return (
    <p className="tax-note" data-testid="tax-note">
      {TAX_NOTE} <a href="/terms#prices">How we price</a>
    </p>
  );
}
