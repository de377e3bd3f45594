import { InputBase } from "@mantine/core";
import { Fragment } from "react";
import { IMaskInput } from "react-imask";
import { LeadForm, type FieldMetadata, type FormBootstrapData } from "~/forms/ui/LeadForm";
import { CardNumberField, useAnswerCount } from "~/forms/ui/card-fields";
import { CityStateZipFields, TextField } from "~/forms/ui/fields";
import { checkoutIdentity } from "./identity";
import { checkoutLabels, checkoutSchema } from "./schema";

/**
 * The checkout form (SPEC §2 Checkout, §3 Checkout payload): a billing part
 * and a payment part in the one form frame (captcha, honeypot, submission
 * key, with and without JavaScript). Every input is a native control named as
 * SPEC's payload; JavaScript adds the card number grouped in fours and its
 * brand, and the expiry's slash (react-imask), as the other paid forms'
 * card entry does (its number field and answer count come from
 * ~/forms/ui/card-fields.tsx; the expiry is one MM/YY field here).
 * The card number and CVV are never filled in from the server and are
 * remounted empty after every answer. `total` is the order summary's total as
 * the page showed it (never the amount charged).
 */
export function CheckoutForm({ bootstrap, shownTotal }: { bootstrap: FormBootstrapData; shownTotal: string }) {
  const answer = useAnswerCount(checkoutIdentity.id);
  return (
    <LeadForm
      id={checkoutIdentity.id}
      title="Checkout form"
      schema={checkoutSchema}
      bootstrap={bootstrap}
      defaultValue={{ state: "MI" }}
      submitLabel="Place Order"
      busyLabel="Processing..."
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
                autoComplete="street-address"
                className="form-span-2"
              />
              <CityStateZipFields fields={fields} labels={checkoutLabels} />
            </div>
          </fieldset>
          <fieldset className="form-section checkout-section">
            <legend>Payment Information</legend>
            <div className="form-grid">
              <Fragment key={`number-${answer}`}>
                <CardNumberField meta={fields.cardNumber} label={checkoutLabels.cardNumber} />
              </Fragment>
              <ExpiryField meta={fields.expiry} />
              <Fragment key={`cvv-${answer}`}>
                <TextField
                  meta={fields.cvv}
                  label={checkoutLabels.cvv}
                  required
                  autoComplete="cc-csc"
                  inputMode="numeric"
                  maxLength={4}
                />
              </Fragment>
            </div>
          </fieldset>
        </>
      )}
    </LeadForm>
  );
}

type Meta = FieldMetadata<unknown>;

/** MM/YY in one field (SPEC §3); the slash is put in as the digits are typed. */
function ExpiryField({ meta }: { meta: Meta }) {
  return (
    <InputBase
      key={meta.key}
      component={IMaskInput}
      mask="00/00"
      id={meta.id}
      name={meta.name}
      label={checkoutLabels.expiry}
      defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : ""}
      withAsterisk
      aria-required
      error={meta.errors?.[0]}
      autoComplete="cc-exp"
      inputMode="numeric"
      placeholder="MM/YY"
    />
  );
}
