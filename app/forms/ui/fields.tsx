import type { FormUploadRule } from "../identity";
import { Checkbox, NativeSelect, Radio, Textarea, TextInput } from "@mantine/core";
import type { FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { MAX_PHOTOS_TOTAL_BYTES, megabytes, photosTotalMessage } from "../options";
import { CHOOSE_PHOTOS_AGAIN } from "./ErrorSummary";
import { PhoneText } from "./PhoneText";

/**
 * Field helpers over Mantine inputs, fed by Conform's field metadata. Every
 * input is a native control (no JS-only widgets), uncontrolled, with its
 * server-returned value as defaultValue, so a no-JS re-render keeps it.
 * Required fields show an asterisk and aria-required; the browser's own
 * `required` check is left off so the server's messages appear beside the
 * fields with and without JavaScript.
 */
type Meta = FieldMetadata<unknown>;

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return typeof value[0] === "string" ? value[0] : "";
  return "";
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

function firstError(meta: Meta) {
  return meta.errors?.[0];
}

/** A field's error as shown beside it: a phone number in it (a refusal's "Call us at …") is a tel: link. */
export function fieldErrorText(meta: Meta) {
  const error = firstError(meta);
  return error ? <PhoneText text={error} /> : undefined;
}

type Common = { meta: Meta; label: string; required?: boolean; description?: string; className?: string };

/** The props every single-value input shares: identity, label, required mark, error, saved value. */
function inputProps({ meta, label, required, description, className }: Common) {
  return {
    id: meta.id,
    name: meta.name,
    label,
    description,
    defaultValue: text(meta.initialValue),
    withAsterisk: required,
    "aria-required": required || undefined,
    error: fieldErrorText(meta),
    className,
  };
}

/** The "*" after a required field's label: seen, not read (the field itself says it is required). */
export function RequiredMark({ required = true }: { required?: boolean }) {
  return required ? (
    <span className="form-required" aria-hidden="true">
      {" "}
      *
    </span>
  ) : null;
}

/** A field's error message, under the id its field names in aria-describedby; nothing without one. */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  return error ? (
    <p id={id} className="form-field-error">
      {error}
    </p>
  ) : null;
}

export function TextField({
  meta,
  label,
  required,
  description,
  className,
  type = "text",
  autoComplete,
  inputMode,
  maxLength,
  min,
  placeholder,
}: Common & {
  type?: "text" | "email" | "tel" | "date";
  autoComplete?: string;
  inputMode?: React.HTMLAttributes<HTMLInputElement>["inputMode"];
  maxLength?: number;
  min?: string;
  placeholder?: string;
}) {
  return (
    <TextInput
      key={meta.key}
      {...inputProps({ meta, label, required, description, className })}
      type={type}
      autoComplete={autoComplete}
      inputMode={inputMode}
      maxLength={maxLength}
      min={min}
      placeholder={placeholder}
    />
  );
}

export function TextAreaField({
  meta,
  label,
  required,
  description,
  className,
  rows = 4,
  maxLength,
}: Common & { rows?: number; maxLength?: number }) {
  return (
    <Textarea
      key={meta.key}
      {...inputProps({ meta, label, required, description, className })}
      rows={rows}
      maxLength={maxLength}
    />
  );
}

export type Option = string | { value: string; label: string };
const opt = (o: Option) => (typeof o === "string" ? { value: o, label: o } : o);

export function SelectField({
  meta,
  label,
  required,
  description,
  className,
  options,
  placeholder = "Select…",
  autoComplete,
}: Common & { options: readonly Option[]; placeholder?: string | null; autoComplete?: string }) {
  const data = [...(placeholder === null ? [] : [{ value: "", label: placeholder }]), ...options.map(opt)];
  return (
    <NativeSelect
      key={meta.key}
      {...inputProps({ meta, label, required, description, className })}
      data={data}
      autoComplete={autoComplete}
    />
  );
}

/** A group of radio buttons (one choice) inside a fieldset with a legend. */
export function RadioField({
  meta,
  label,
  required,
  description,
  className,
  options,
  inline = true,
}: Common & { options: readonly Option[]; inline?: boolean }) {
  const current = text(meta.initialValue);
  const error = firstError(meta);
  const errorId = `${meta.id}-error`;
  return (
    <fieldset
      key={meta.key}
      role="radiogroup"
      className={`form-fieldset ${className ?? ""}`}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
      aria-required={required || undefined}
    >
      <legend className="form-label">
        {label}
        <RequiredMark required={required} />
      </legend>
      {description ? <p className="form-hint">{description}</p> : null}
      <div className={inline ? "form-choices form-choices--inline" : "form-choices"}>
        {options.map(opt).map((o, i) => (
          <Radio
            key={o.value}
            // The first choice carries the field's id: the error summary's link lands on it.
            id={i === 0 ? meta.id : `${meta.id}-${o.value}`}
            name={meta.name}
            value={o.value}
            label={o.label}
            defaultChecked={current === o.value}
          />
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

/** A list of checkboxes sharing one name (a list of strings). */
export function CheckboxListField({
  meta,
  label,
  required,
  description,
  className,
  options,
}: Common & { options: readonly Option[] }) {
  const checked = list(meta.initialValue);
  const error = firstError(meta);
  const errorId = `${meta.id}-error`;
  return (
    <fieldset
      key={meta.key}
      className={`form-fieldset ${className ?? ""}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="form-label">
        {label}
        <RequiredMark required={required} />
      </legend>
      {description ? <p className="form-hint">{description}</p> : null}
      <div className="form-choices form-choices--grid">
        {options.map(opt).map((o, i) => (
          <Checkbox
            key={o.value}
            id={i === 0 ? meta.id : `${meta.id}-${o.value.replace(/\W+/g, "-")}`}
            name={meta.name}
            value={o.value}
            label={o.label}
            defaultChecked={checked.includes(o.value)}
          />
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

/**
 * Photos: a native <input type="file" multiple accept="image/*">. With
 * JavaScript, picking more than `max` files shows the alert and ignores the
 * selection (SPEC §5), and a photo over `maxBytes` or a selection over
 * `maxTotalBytes` in all is refused with the server's own rule in words;
 * without it the server answers with a field error.
 */
export function PhotoField({
  formId,
  rule,
  errors,
  dropped = false,
  label = "Photos (optional)",
  description,
}: {
  formId: string;
  /** The form's upload rule (its identity.ts): field name, how many, how large. */
  rule: FormUploadRule;
  errors?: string[];
  /** A refused page lost the photos chosen for it: say so until the visitor chooses again. */
  dropped?: boolean;
  label?: string;
  description?: string;
}) {
  const { field: name, maxFiles: max, maxBytes, maxTotalBytes = MAX_PHOTOS_TOTAL_BYTES, tooManyMessage } = rule;
  const [clientError, setClientError] = useState<string | null>(null);
  // Too many chosen: the first ones are kept and the page says so beside the field (no alert).
  const [kept, setKept] = useState<string | null>(null);
  // Chosen again after a refused page lost the photos: the word about them goes.
  const [chosenAgain, setChosenAgain] = useState(false);
  const id = `${formId}-${name}`;
  const droppedText = dropped && !chosenAgain && !clientError ? CHOOSE_PHOTOS_AGAIN : null;
  const error =
    clientError ?? (errors?.[0] && droppedText ? `${errors[0]} ${droppedText}` : (errors?.[0] ?? droppedText));
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const keptId = `${id}-kept`;
  const describedBy = [hintId, kept ? keptId : null, error ? errorId : null].filter(Boolean).join(" ");
  // The total is worth a word only where the photos allowed could pass it (10 × 10 MB, not 3 × 10 MB).
  const totalApplies = max * maxBytes > maxTotalBytes;
  return (
    <div className="form-photos">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <p id={hintId} className="form-hint">
        {description ??
          `Up to ${max} photos (JPEG, PNG, GIF, WebP or HEIC), ${megabytes(maxBytes)} each${totalApplies ? `, at most ${megabytes(maxTotalBytes)} in all` : ""}.`}
      </p>
      <input
        id={id}
        className="form-native-input form-file"
        type="file"
        name={name}
        multiple
        accept="image/*"
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          const input = event.currentTarget;
          let files = Array.from(input.files ?? []);
          setClientError(null);
          setKept(null);
          setChosenAgain(files.length > 0);
          if (files.length > max) {
            files = files.slice(0, max);
            const first = new DataTransfer();
            for (const file of files) first.items.add(file);
            input.files = first.files;
            setKept(`${tooManyMessage} The first ${max} you chose are kept: ${files.map((f) => f.name).join(", ")}.`);
          }
          const big = files.find((f) => f.size > maxBytes);
          const total = files.reduce((sum, f) => sum + f.size, 0);
          if (big) {
            setClientError(`Each photo must be ${megabytes(maxBytes)} or smaller; "${big.name}" is too large.`);
            input.value = "";
          } else if (total > maxTotalBytes) {
            setClientError(photosTotalMessage(total, maxTotalBytes));
            input.value = "";
          }
        }}
      />
      {kept ? (
        <p id={keptId} className="form-hint form-photos-kept" role="status">
          {kept}
        </p>
      ) : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/**
 * City, state and ZIP code, as every form with a postal address asks them
 * (three cells of the form's `.form-grid`; each form names the labels).
 */
export function CityStateZipFields({
  fields,
  labels,
}: {
  fields: Record<"city" | "state" | "zip", FieldMetadata<unknown>>;
  labels: Record<"city" | "state" | "zip", string>;
}) {
  return (
    <>
      <TextField meta={fields.city} label={labels.city} required autoComplete="address-level2" />
      <TextField meta={fields.state} label={labels.state} required autoComplete="address-level1" maxLength={50} />
      <TextField
        meta={fields.zip}
        label={labels.zip}
        required
        autoComplete="postal-code"
        inputMode="numeric"
        maxLength={12}
      />
    </>
  );
}
