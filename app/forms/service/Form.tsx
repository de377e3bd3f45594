import { CONTACT_METHODS, DEFAULT_COUNTRY, DEFAULT_STATE, SERVICE_TIMES } from "../options";
import { LeadForm, type FormBootstrapData } from "../ui/LeadForm";
import { SelectField, TextAreaField, TextField } from "../ui/fields";
import { commercialServiceIdentity } from "./identity";
import { ServiceContactFields } from "./ContactFields";
import { commercialServiceSchema, serviceLabels } from "./schema";

/**
 * The commercial service form (SPEC §3 Service request). It keeps its values
 * after success (SPEC §4), so a second visit for the same site is quick.
 */
export function CommercialServiceForm({
  bootstrap,
  today,
}: {
  bootstrap: FormBootstrapData;
  /**
   * Today in Detroit (~/lib/company-time.ts), the first day the date field offers, as the page's
   * loader saw it: worked out in the browser, it would be the page's first Intl formatter, whose
   * ICU start-up is a long task of its own while the form hydrates (docs/decisions/066).
   */
  today: string;
}) {
  const { id, uploads } = commercialServiceIdentity;
  return (
    <LeadForm
      id={id}
      title="Commercial service request form"
      schema={commercialServiceSchema}
      bootstrap={bootstrap}
      multipart
      uploads={uploads}
      defaultValue={{ state: DEFAULT_STATE, country: DEFAULT_COUNTRY }}
    >
      {(fields) => (
        <div className="form-grid">
          <ServiceContactFields fields={fields} />
          <TextField meta={fields.serviceDate} label={serviceLabels.serviceDate} type="date" required min={today} />
          <SelectField
            meta={fields.serviceTime}
            label={serviceLabels.serviceTime}
            required
            options={SERVICE_TIMES}
            placeholder="Choose a time slot"
          />
          <SelectField
            meta={fields.contactMethod}
            label={serviceLabels.contactMethod}
            required
            options={CONTACT_METHODS}
            className="form-span-2"
          />
          <TextAreaField meta={fields.description} label={serviceLabels.description} rows={4} className="form-span-2" />
        </div>
      )}
    </LeadForm>
  );
}
