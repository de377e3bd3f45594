import type { ReactNode } from "react";
import { COUNTRIES } from "../options";
import type { FieldMetadata } from "../ui/LeadForm";
import { CityStateZipFields, SelectField, TextField } from "../ui/fields";
import { serviceLabels } from "./schema";

type Meta = FieldMetadata<unknown>;
type ContactMeta = Record<
  "name" | "phone" | "email" | "address1" | "address2" | "city" | "state" | "zip" | "country",
  Meta
>;

/**
 * Who and where, as both service forms ask it (SPEC §3 Service request): cells of the form's `.form-grid`.
 * `zip` replaces the plain ZIP field (the residential booking's, with the service area's answer under it).
 */
export function ServiceContactFields({ fields, zip }: { fields: ContactMeta; zip?: ReactNode }) {
  return (
    <>
      <TextField meta={fields.name} label={serviceLabels.name} required autoComplete="name" className="form-span-2" />
      <TextField meta={fields.phone} label={serviceLabels.phone} type="tel" required autoComplete="tel" />
      <TextField meta={fields.email} label={serviceLabels.email} type="email" required autoComplete="email" />
      <TextField
        meta={fields.address1}
        label={serviceLabels.address1}
        required
        autoComplete="address-line1"
        className="form-span-2"
      />
      <TextField
        meta={fields.address2}
        label={serviceLabels.address2}
        autoComplete="address-line2"
        className="form-span-2"
      />
      {zip ? (
        <>
          <TextField meta={fields.city} label={serviceLabels.city} required autoComplete="address-level2" />
          <TextField
            meta={fields.state}
            label={serviceLabels.state}
            required
            autoComplete="address-level1"
            maxLength={50}
          />
          {zip}
        </>
      ) : (
        <CityStateZipFields fields={fields} labels={serviceLabels} />
      )}
      <SelectField
        meta={fields.country}
        label={serviceLabels.country}
        required
        options={COUNTRIES}
        placeholder={null}
        autoComplete="country-name"
      />
    </>
  );
}
