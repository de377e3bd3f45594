import type { FormBootstrapData } from "./bootstrap";

/**
 * The honeypot's two fields, rendered here rather than by remix-utils'
 * `HoneypotInputs`: that component writes `autocomplete="nope"`, which is not
 * a valid autofill token (the W3C validator rejects it, issue 15), and offers
 * no option to change it. The contract is the one honeypot.server.ts checks:
 * `name__confirm` arrives empty, `from__confirm` carries the encrypted render
 * time, read-only.
 *
 * Hidden the way remix-utils hides them: `display: none` (forms.css
 * `.form-honeypot`), out of the keyboard's tab order and out of the
 * accessibility tree, so only a bot that fills every field it parses trips it.
 * The ids take the form's id so two forms on one page cannot collide.
 */
export function HoneypotFields({ formId, fields }: { formId: string; fields: FormBootstrapData["honeypot"] }) {
  const nameId = `${formId}-${fields.nameFieldName}`;
  const validFromId = `${formId}-${fields.validFromFieldName}`;
  return (
    <div className="form-honeypot" aria-hidden="true">
      <label htmlFor={nameId}>Please leave this field blank</label>
      <input id={nameId} name={fields.nameFieldName} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
      <label htmlFor={validFromId}>Please leave this field blank</label>
      <input
        id={validFromId}
        name={fields.validFromFieldName}
        type="text"
        value={fields.encryptedValidFrom}
        readOnly
        autoComplete="off"
        tabIndex={-1}
      />
    </div>
  );
}
