import { LeadForm, type FormBootstrapData } from "../ui/LeadForm";
import { TextAreaField, TextField } from "../ui/fields";
import { contactIdentity } from "./identity";
import { contactLabels, contactSchema } from "./schema";

/**
 * The contact form (SPEC §2 Contact Us), on /contact (routes/contact.tsx).
 * Another page can show it too: give it that page's form bootstrap and
 * action="/contact", so it posts to /contact.
 */
export function ContactForm({ bootstrap, action }: { bootstrap: FormBootstrapData; action?: string }) {
  return (
    <LeadForm
      id={contactIdentity.id}
      title="Contact form"
      schema={contactSchema}
      bootstrap={bootstrap}
      action={action}
      submitLabel="Submit"
      busyLabel="Sending..."
    >
      {(fields) => (
        <div className="form-grid">
          <TextField meta={fields.first_name} label={contactLabels.first_name} required autoComplete="given-name" />
          <TextField meta={fields.last_name} label={contactLabels.last_name} required autoComplete="family-name" />
          <TextField meta={fields.email} label={contactLabels.email} type="email" required autoComplete="email" />
          <TextField meta={fields.phone} label={contactLabels.phone} type="tel" required autoComplete="tel" />
          <TextAreaField
            meta={fields.details}
            label={contactLabels.details}
            required
            rows={5}
            className="form-span-2"
          />
        </div>
      )}
    </LeadForm>
  );
}
