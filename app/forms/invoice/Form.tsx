import { InputBase } from "@mantine/core";
import { PolicyNote } from "../ui/PolicyNote";
import { useState } from "react";
import { formatUsd } from "~/payments/money";
import { LeadForm, type FieldMetadata, type FormBootstrapData } from "../ui/LeadForm";
import { CardFields } from "../ui/card-fields";
import { CityStateZipFields, TextField } from "../ui/fields";
import { invoiceIdentity } from "./identity";
import { invoiceAmountCents, invoiceLabels, invoiceSchema } from "./schema";

/**
 * Pay Invoice (SPEC §3 Invoice payment, §5 Invoice). Every input is a native
 * control named as SPEC §7's payload (cardExpMonth and cardExpYear are two
 * inputs, so the form posts them without JavaScript too); JavaScript adds the
 * card number grouped in fours (react-imask) and its brand (the shared card
 * fields, ../ui/card-fields.tsx), and the amount shown as a dollar total while
 * the visitor types. The card number and CVC are never filled in from the
 * server (./identity.ts).
 */
export function InvoiceForm({ bootstrap }: { bootstrap: FormBootstrapData }) {
  return (
    <LeadForm
      id={invoiceIdentity.id}
      title="Invoice payment form"
      schema={invoiceSchema}
      bootstrap={bootstrap}
      defaultValue={{ state: "MI" }}
      submitLabel="Pay Invoice"
      busyLabel="Processing..."
      submitNote={<PolicyNote action="paying" />}
    >
      {(fields) => (
        <div className="form-grid">
          <TextField meta={fields.name} label={invoiceLabels.name} required autoComplete="name" />
          <TextField meta={fields.email} label={invoiceLabels.email} type="email" required autoComplete="email" />
          <TextField
            meta={fields.address}
            label={invoiceLabels.address}
            required
            autoComplete="address-line1"
            className="form-span-2"
          />
          <TextField
            meta={fields.address_2}
            label={invoiceLabels.address_2}
            autoComplete="address-line2"
            className="form-span-2"
          />
          <CityStateZipFields fields={fields} labels={invoiceLabels} />
          <TextField meta={fields.invoice_number} label={invoiceLabels.invoice_number} required maxLength={50} />
          <AmountField meta={fields.invoice_payment_amount} />
          <CardFields formId={invoiceIdentity.id} fields={fields} />
        </div>
      )}
    </LeadForm>
  );
}

type Meta = FieldMetadata<unknown>;

const initial = (meta: Meta) => (typeof meta.initialValue === "string" ? meta.initialValue : "");

/** The amount as typed, and beside it what will be charged: "$250.50" (nothing while it is not an amount). */
function AmountField({ meta }: { meta: Meta }) {
  const [typed, setTyped] = useState(() => initial(meta));
  const cents = invoiceAmountCents(typed);
  const totalId = `${meta.id}-total`;
  return (
    <div>
      <InputBase
        key={meta.key}
        id={meta.id}
        name={meta.name}
        label={invoiceLabels.invoice_payment_amount}
        withAsterisk
        aria-required
        aria-describedby={totalId}
        defaultValue={initial(meta)}
        error={meta.errors?.[0]}
        inputMode="decimal"
        maxLength={20}
        leftSection="$"
        onInput={(event) => setTyped(event.currentTarget.value)}
      />
      <p id={totalId} className="form-hint" aria-live="polite">
        {cents !== null ? `Total: ${formatUsd(cents)}` : ""}
      </p>
    </div>
  );
}
