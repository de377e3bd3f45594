import { useRef, useState } from "react";
import { PolicyNote } from "~/forms/ui/PolicyNote";
import { company } from "~/lib/company";
import { formatUsd } from "~/payments/money";
import { SERVICE_PRICE_CENTS } from "~/booking/service-price";
import { CONTACT_METHODS, DEFAULT_COUNTRY, DEFAULT_STATE } from "~/forms/options";
import { CardFields } from "~/forms/ui/card-fields";
import { SelectField, TextAreaField } from "~/forms/ui/fields";
import { LeadForm, type FormBootstrapData } from "~/forms/ui/LeadForm";
import type { Availability } from "../availability";
import { residentialServiceIdentity } from "./identity";
import { residentialLabels, residentialServiceSchema } from "./schema";
import { ServiceContactFields } from "~/forms/service/ContactFields";
import { ServiceAreaField } from "./ServiceAreaField";
import { isOutsideAreaMessage, OUTSIDE_QUOTE_LINK, OUTSIDE_QUOTE_PATH } from "~/maps/coverage";
import { VisitFields, visitPreviewId, type Typed } from "./VisitFields";

/**
 * The residential service booking, paid by card (SPEC §3 Service request,
 * §5 Residential service extras; issue 16 items 2–3): the commercial form's
 * fields, the visit's date and slot against real availability, and the card.
 *
 * The visit's day and window: ./VisitFields.tsx (a calendar with JavaScript, native inputs
 * and "Show price" without); the price charged is the server's (~/booking/service-price.ts,
 * the one rule shown there).
 */
export function ResidentialServiceForm({
  bootstrap,
  availability,
}: {
  bootstrap: FormBootstrapData;
  availability: Availability;
}) {
  const { id, uploads } = residentialServiceIdentity;
  // What the visitor typed in the native inputs before hydration replaced them.
  const typed = useRef<Typed>({});
  // With JavaScript: the ZIP's answer came back outside the area; no price is shown for a visit that cannot be booked.
  const [outside, setOutside] = useState<string | null>(null);
  return (
    <>
      <p className="form-hint">
        Pick a day and a time window; the price is set by the day and the time (weekdays from{" "}
        {formatUsd(SERVICE_PRICE_CENTS.standard)}). You pay by card now and receive a receipt and a calendar invitation
        by e-mail. Garage door emergency after hours? Call{" "}
        <a href={company.emergencyPhone.href}>{company.emergencyPhone.display}</a>, day or night.
      </p>
      <LeadForm
        id={id}
        title="Residential service booking form"
        schema={residentialServiceSchema}
        bootstrap={bootstrap}
        multipart
        uploads={uploads}
        defaultValue={{ state: DEFAULT_STATE, country: DEFAULT_COUNTRY }}
        submitLabel="Book and Pay"
        busyLabel="Processing..."
        previewAnchor={visitPreviewId(`${id}-serviceDate`)}
        submitNote={<PolicyNote action="booking and paying" />}
        summaryLead={outside ? { name: "zip", message: outside } : null}
        summaryLink={(message) =>
          isOutsideAreaMessage(message) ? { href: OUTSIDE_QUOTE_PATH, text: OUTSIDE_QUOTE_LINK } : null
        }
      >
        {(fields, errors) => (
          <div className="form-grid">
            <ServiceContactFields
              fields={fields}
              zip={<ServiceAreaField meta={fields.zip} label={residentialLabels.zip} onOutside={setOutside} />}
            />
            <VisitFields
              date={fields.serviceDate}
              time={fields.serviceTime}
              availability={availability}
              typed={typed}
              // No price for a ZIP the booking refuses (issue 38): the summary says why instead.
              priced={!errors.zip?.length && outside === null}
            />
            <SelectField
              meta={fields.contactMethod}
              label={residentialLabels.contactMethod}
              required
              options={CONTACT_METHODS}
              className="form-span-2"
            />
            <TextAreaField
              meta={fields.description}
              label={residentialLabels.description}
              rows={4}
              className="form-span-2"
            />
            <div className="form-span-2 form-subhead">
              <h3>Payment</h3>
              <p className="form-hint">
                Your card is charged the visit&apos;s price when you book. We never store your card number.
              </p>
            </div>
            <CardFields formId={id} fields={fields} />
          </div>
        )}
      </LeadForm>
    </>
  );
}
