import { DEFAULT_STATE, EDUCATION_LEVELS } from "../options";
import { LeadForm, type FormBootstrapData } from "../ui/LeadForm";
import { RadioField, SelectField, TextAreaField, TextField } from "../ui/fields";
import { employmentIdentity } from "./identity";
import { employmentLabels as L, employmentSchema } from "./schema";

/** The employment application (SPEC §3, required/optional split of §5). */
const YES_NO = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

export function EmploymentForm({ bootstrap }: { bootstrap: FormBootstrapData }) {
  return (
    <LeadForm
      id={employmentIdentity.id}
      title="Employment application form"
      schema={employmentSchema}
      bootstrap={bootstrap}
      defaultValue={{ state: DEFAULT_STATE }}
    >
      {(fields) => (
        <>
          <fieldset className="form-section">
            <legend>About you</legend>
            <div className="form-grid form-grid--name">
              <TextField meta={fields.firstName} label={L.firstName} required autoComplete="given-name" />
              <TextField
                meta={fields.middleInitial}
                label={L.middleInitial}
                autoComplete="additional-name"
                maxLength={3}
              />
              <TextField meta={fields.lastName} label={L.lastName} required autoComplete="family-name" />
            </div>
            <div className="form-grid">
              <TextField meta={fields.address} label={L.address} required autoComplete="address-line1" />
              <TextField meta={fields.address2} label={L.address2} autoComplete="address-line2" />
              <TextField meta={fields.city} label={L.city} required autoComplete="address-level2" />
              <TextField meta={fields.state} label={L.state} required autoComplete="address-level1" maxLength={50} />
              <TextField meta={fields.zip} label={L.zip} required autoComplete="postal-code" maxLength={12} />
              <TextField meta={fields.phone} label={L.phone} type="tel" required autoComplete="tel" />
              <TextField meta={fields.email} label={L.email} type="email" required autoComplete="email" />
              <TextField
                meta={fields.ssn}
                label={L.ssn}
                required
                autoComplete="off"
                inputMode="numeric"
                maxLength={11}
                description="Stored encrypted and used only for employment screening."
              />
            </div>
          </fieldset>
          <fieldset className="form-section">
            <legend>The position</legend>
            <div className="form-grid">
              <TextField meta={fields.position} label={L.position} required />
              <TextField meta={fields.desiredSalary} label={L.desiredSalary} required />
              <TextField meta={fields.dateAvailable} label={L.dateAvailable} type="date" required />
              <SelectField meta={fields.education} label={L.education} required options={EDUCATION_LEVELS} />
            </div>
          </fieldset>
          <fieldset className="form-section">
            <legend>Eligibility and history</legend>
            <div className="form-grid">
              <RadioField meta={fields.usCitizen} label={L.usCitizen} required options={YES_NO} />
              <RadioField meta={fields.authorized} label={L.authorized} required options={YES_NO} />
              <RadioField meta={fields.workedBefore} label={L.workedBefore} required options={YES_NO} />
              <TextField meta={fields.workedWhen} label={L.workedWhen} />
              <RadioField meta={fields.convicted} label={L.convicted} required options={YES_NO} />
              <TextField
                meta={fields.convictionExplanation}
                label={L.convictionExplanation}
                description="A conviction does not automatically disqualify you."
              />
            </div>
          </fieldset>
          <TextAreaField meta={fields.qualificationStatement} label={L.qualificationStatement} required rows={5} />
        </>
      )}
    </LeadForm>
  );
}
