import { PROMO_PRODUCTS } from "../options";
import { LeadForm, type FormBootstrapData } from "../ui/LeadForm";
import { SelectField, TextField } from "../ui/fields";
import { promoIdentity } from "./identity";
import { promoLabels, promoSchema } from "./schema";

/** The discount sign-up at /discount-signup-2025 (SPEC §3 Promo request). */
export function PromoForm({ bootstrap }: { bootstrap: FormBootstrapData }) {
  return (
    <LeadForm
      id={promoIdentity.id}
      title="Discount sign-up form"
      schema={promoSchema}
      bootstrap={bootstrap}
      submitLabel="Submit"
      busyLabel="Sending..."
    >
      {(fields) => (
        <div className="form-grid">
          <TextField meta={fields.first_name} label={promoLabels.first_name} required autoComplete="given-name" />
          <TextField meta={fields.last_name} label={promoLabels.last_name} required autoComplete="family-name" />
          <TextField meta={fields.email} label={promoLabels.email} type="email" required autoComplete="email" />
          <TextField meta={fields.phone} label={promoLabels.phone} type="tel" required autoComplete="tel" />
          <SelectField
            meta={fields.product}
            label="Which product is your project about?"
            required
            options={PROMO_PRODUCTS}
            placeholder="Choose a product"
            className="form-span-2"
          />
        </div>
      )}
    </LeadForm>
  );
}
