import { CONSULTATIONS, CONTACT_METHODS, START_TIMES, YES_NO, quoteForOptions, type QuoteType } from "../options";
import { LeadForm, type FormBootstrapData } from "../ui/LeadForm";
import { CheckboxListField, RadioField, SelectField, TextAreaField, TextField } from "../ui/fields";
import { fullQuoteIdentity, simpleQuoteIdentity } from "./identity";
import { fullQuoteSchema, quoteLabels, simpleQuoteSchema } from "./schema";

/**
 * Quote forms. `QuoteForm` is the full form of /request-quote?type=… (photos,
 * existing customer, business name on commercial). `SimpleQuoteForm` is the
 * shorter one embedded on product pages (DECISIONS 9).
 */
type Fields = Parameters<Parameters<typeof LeadForm<typeof simpleQuoteSchema>>[0]["children"]>[0];

function ContactAndProject({ fields, quoteType }: { fields: Fields; quoteType: QuoteType }) {
  return (
    <>
      <TextField meta={fields.first_name} label={quoteLabels.first_name} required autoComplete="given-name" />
      <TextField meta={fields.last_name} label={quoteLabels.last_name} required autoComplete="family-name" />
      <TextField meta={fields.phone} label={quoteLabels.phone} type="tel" required autoComplete="tel" />
      <TextField meta={fields.email} label={quoteLabels.email} type="email" required autoComplete="email" />
      <TextField
        meta={fields.zip}
        label={quoteLabels.zip}
        required
        autoComplete="postal-code"
        inputMode="numeric"
        maxLength={12}
      />
      <SelectField meta={fields.contact_method} label={quoteLabels.contact_method} required options={CONTACT_METHODS} />
      <CheckboxListField
        meta={fields.quote_for}
        label={quoteLabels.quote_for}
        required
        options={quoteForOptions(quoteType)}
        className="form-span-2"
      />
      <TextAreaField meta={fields.description} label={quoteLabels.description} rows={4} className="form-span-2" />
      <SelectField meta={fields.start_time} label={quoteLabels.start_time} required options={START_TIMES} />
      <SelectField meta={fields.consultation} label={quoteLabels.consultation} required options={CONSULTATIONS} />
      <RadioField meta={fields.financing} label={quoteLabels.financing} required options={YES_NO} />
    </>
  );
}

export function QuoteForm({ bootstrap, quoteType }: { bootstrap: FormBootstrapData; quoteType: QuoteType }) {
  const commercial = quoteType === "Commercial";
  const { id, uploads } = fullQuoteIdentity;
  return (
    <LeadForm
      id={id}
      title={`${quoteType} quote request form`}
      schema={fullQuoteSchema}
      bootstrap={bootstrap}
      multipart
      uploads={uploads}
      defaultValue={{ quote_type: quoteType }}
    >
      {(fields) => (
        <div className="form-grid">
          <input type="hidden" name="quote_type" value={quoteType} />
          {commercial ? (
            <TextField
              meta={fields.business_name}
              label={quoteLabels.business_name}
              autoComplete="organization"
              className="form-span-2"
            />
          ) : null}
          <ContactAndProject fields={fields as unknown as Fields} quoteType={quoteType} />
          <RadioField meta={fields.existing_customer} label={quoteLabels.existing_customer} required options={YES_NO} />
        </div>
      )}
    </LeadForm>
  );
}

/**
 * The embeddable quote form for product pages. The host route exports
 * `simpleQuoteAction` (app/forms/quote/embed.server.ts) as its action and puts
 * `formBootstrap()` in its loader; see the contract there.
 */
export function SimpleQuoteForm({
  bootstrap,
  quoteType,
  action,
}: {
  bootstrap: FormBootstrapData;
  quoteType: QuoteType;
  action?: string;
}) {
  return (
    <LeadForm
      id={simpleQuoteIdentity.id}
      title={`${quoteType} quote request form`}
      schema={simpleQuoteSchema}
      bootstrap={bootstrap}
      action={action}
    >
      {(fields) => (
        <div className="form-grid">
          <input type="hidden" name="quote_type" value={quoteType} />
          <ContactAndProject fields={fields} quoteType={quoteType} />
        </div>
      )}
    </LeadForm>
  );
}
