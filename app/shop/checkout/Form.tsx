import { LeadForm, type FormBootstrapData } from "~/forms/ui/LeadForm";
import { PolicyNote } from "~/forms/ui/PolicyNote";
import { CardEntry } from "~/forms/ui/card-fields";
import { CityStateZipFields, TextField } from "~/forms/ui/fields";
import { checkoutIdentity } from "./identity";
import { InstallationFields } from "./InstallationFields";
import { checkoutLabels, checkoutSchema } from "./schema";

/**
 * The checkout form (SPEC §2 Checkout, §3 Checkout payload): a billing part
 * and a payment part in the one form frame (captcha, honeypot, submission
 * key, with and without JavaScript). Every input is a native control named as
 * SPEC's payload; the payment part is every paid form's card entry
 * (~/forms/ui/card-fields.tsx: the same fields, labels, masks and messages),
 * posting cardNumber, expiry and cvv, without a cardholder field (the Full
 * Name is the cardholder's). The card number and CVV are never filled in from
 * the server and are remounted empty after every answer. `total` is the order summary's total as
 * the page showed it (never the amount charged).
 */
export function CheckoutForm({ bootstrap, shownTotal }: { bootstrap: FormBootstrapData; shownTotal: string }) {
  return (
    <LeadForm
      id={checkoutIdentity.id}
      title="Checkout form"
      schema={checkoutSchema}
      bootstrap={bootstrap}
      defaultValue={{ state: "MI" }}
      submitLabel="Place Order"
      busyLabel="Processing..."
      submitNote={<PolicyNote action="placing your order" />}
    >
      {(fields) => (
        <>
          {/* The total beside the form: the server refuses the order if the cart's is not this any more. */}
          <input type="hidden" name="total" value={shownTotal} />
          <fieldset className="form-section checkout-section">
            <legend>Billing Information</legend>
            <div className="form-grid">
              <TextField
                meta={fields.name}
                label={checkoutLabels.name}
                required
                autoComplete="name"
                className="form-span-2"
              />
              <TextField meta={fields.email} label={checkoutLabels.email} type="email" required autoComplete="email" />
              <TextField meta={fields.phone} label={checkoutLabels.phone} type="tel" required autoComplete="tel" />
              <TextField
                meta={fields.address}
                label={checkoutLabels.address}
                required
                autoComplete="address-line1"
                className="form-span-2"
              />
              <CityStateZipFields fields={fields} labels={checkoutLabels} />
            </div>
          </fieldset>
          <InstallationFields fields={fields} />
          <fieldset className="form-section checkout-section">
            <legend>Payment Information</legend>
            <div className="form-grid">
              <CardEntry
                formId={checkoutIdentity.id}
                holderNote="The name on the card is the Full Name above."
                number={fields.cardNumber}
                expiry={fields.expiry}
                cvc={fields.cvv}
              />
            </div>
          </fieldset>
        </>
      )}
    </LeadForm>
  );
}
