import { Checkbox, TextInput } from "@mantine/core";
import type { FieldMetadata } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { fieldErrorText } from "~/forms/ui/fields";
import { PhoneText } from "~/forms/ui/PhoneText";
import { installationNote } from "~/maps/coverage";
import { useCoverage } from "~/maps/use-coverage";
import { installationLabels } from "./installation";

type Meta = FieldMetadata<unknown>;
type Name = keyof typeof installationLabels;

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * Where to install (DECISIONS 34), between the billing and the payment parts of the checkout:
 * "Same as billing address" (checked by default) and the address block, which is always in the
 * page and read by the server only when the box is not checked (./installation.ts). While the
 * box is checked the block is hidden by the stylesheet (checkout.css, `:has`), with or without
 * JavaScript; a browser without `:has` shows it, and the server ignores it. `installAsked` tells
 * the server the box was on the page, so an unchecked box (which sends nothing) means another
 * address. A refused post comes back with the box as it was sent.
 */
export function InstallationFields({ fields }: { fields: Record<Name, Meta> & { installAsked: Meta; zip: Meta } }) {
  const box = fields.installSameAsBilling;
  // A re-render of a post (its values came back): the box as it was sent; a new page: checked.
  const answered = fields.installAsked.initialValue !== undefined;
  const checked = answered ? text(box.initialValue) !== "" : true;
  const [same, setSame] = useState(checked);
  return (
    <fieldset className="form-section checkout-section checkout-installation">
      <legend>Installation Address</legend>
      <p className="form-hint">Every price includes installation. Where should we install?</p>
      <input type="hidden" name="installAsked" value="1" />
      <Checkbox
        key={`${box.key}-${String(checked)}`}
        id={box.id}
        name={box.name}
        value="on"
        label={installationLabels.installSameAsBilling}
        defaultChecked={checked}
        onChange={(event) => setSame(event.currentTarget.checked)}
        className="checkout-installation-same"
      />
      {same ? <BillingZipNote billingZip={fields.zip} /> : null}
      <div className="form-grid checkout-installation-block">
        <BlockField
          meta={fields.installAddress}
          name="installAddress"
          shown="Address"
          wide
          autoComplete="address-line1"
        />
        <BlockField meta={fields.installCity} name="installCity" shown="City" autoComplete="address-level2" />
        <BlockField
          meta={fields.installState}
          name="installState"
          shown="State"
          autoComplete="address-level1"
          maxLength={50}
          fallback={answered ? "" : "MI"}
        />
        <InstallZipField meta={fields.installZip} />
      </div>
    </fieldset>
  );
}

/**
 * The installation ZIP, with the service area's answer under it as soon as five digits are typed
 * (with JavaScript; issue 45 item 4): the shop installs only inside the area, and the visitor
 * learns it before typing a card. The server refuses it again before any charge.
 */
function InstallZipField({ meta }: { meta: Meta }) {
  const [typed, setTyped] = useState(() => text(meta.initialValue));
  const said = useInstallationNote(typed, meta);
  return (
    <BlockField
      meta={meta}
      name="installZip"
      shown="ZIP Code"
      autoComplete="postal-code"
      inputMode="numeric"
      maxLength={12}
      onTyped={setTyped}
      flagged={Boolean(said)}
      description={
        <span aria-live="polite" className="service-area-note">
          {said ? (
            <span className="form-field-error">
              <PhoneText text={said.text} />
            </span>
          ) : null}
        </span>
      }
    />
  );
}

/**
 * While "Same as billing address" is ticked, the billing ZIP is where we install: the service
 * area's answer for it, said here as it is typed (with JavaScript), as under the installation ZIP.
 * Quiet once the server has said the same words beside the billing ZIP.
 */
function BillingZipNote({ billingZip }: { billingZip: Meta }) {
  const said = useInstallationNote(text(billingZip.value), billingZip);
  return (
    <p aria-live="polite" className="service-area-note checkout-installation-note">
      {said ? (
        <span className="form-field-error">
          <PhoneText text={said.text} />
        </span>
      ) : null}
    </p>
  );
}

/** The service area's refusal for a typed ZIP, unless the server already said it beside `meta`'s field. */
function useInstallationNote(typed: string, meta: Meta) {
  const answer = useCoverage(typed);
  const note = answer ? installationNote(answer) : null;
  return note && note.text !== meta.errors?.[0] ? note : null;
}

/**
 * One input of the block: its label reads "City" under the legend, and "Installation City" to a
 * screen reader (the billing part has a "City" too). Required when the block counts.
 */
function BlockField({
  meta,
  name,
  shown,
  wide,
  autoComplete,
  inputMode,
  maxLength,
  fallback = "",
  onTyped,
  flagged,
  description,
}: {
  meta: Meta;
  name: Exclude<Name, "installSameAsBilling">;
  shown: string;
  wide?: boolean;
  autoComplete: string;
  inputMode?: "numeric";
  maxLength?: number;
  fallback?: string;
  onTyped?: (value: string) => void;
  /** In error by the page's own check (the installation ZIP's answer), before the server's. */
  flagged?: boolean;
  description?: ReactNode;
}) {
  const hidden = installationLabels[name].slice(0, -shown.length);
  return (
    <TextInput
      key={meta.key}
      id={meta.id}
      name={meta.name}
      label={
        <>
          <span className="visually-hidden">{hidden}</span>
          {shown}
        </>
      }
      defaultValue={text(meta.initialValue) || fallback}
      withAsterisk
      error={fieldErrorText(meta) ?? (flagged ? true : undefined)}
      onChange={onTyped ? (event) => onTyped(event.currentTarget.value) : undefined}
      description={description}
      inputWrapperOrder={description ? ["label", "input", "error", "description"] : undefined}
      autoComplete={`shipping ${autoComplete}`}
      inputMode={inputMode}
      maxLength={maxLength}
      className={wide ? "form-span-2" : undefined}
    />
  );
}
