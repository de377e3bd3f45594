import { COUNTRIES } from "../options";
import type { FieldMetadata } from "../ui/LeadForm";
import { CityStateZipFields, SelectField, TextField } from "../ui/fields";
import { serviceLabels } from "./schema";

type Meta = FieldMetadata<unknown>;
type ContactMeta = Record<
  "name" | "phone" | "email" | "address1" | "address2" | "city" | "state" | "zip" | "country",
  Meta
>;

/** Who and where, as both service forms ask it (SPEC §3 Service request): cells of the form's `.form-grid`. */
export function ServiceContactFields({ fields }: { fields: ContactMeta }) {
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
      <CityStateZipFields fields={fields} labels={serviceLabels} />
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
