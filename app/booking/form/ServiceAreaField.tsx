import { TextInput } from "@mantine/core";
import { useEffect, useState } from "react";
import { OUTSIDE_QUOTE_LINK, OUTSIDE_QUOTE_PATH, coverageNote, isOutsideAreaMessage } from "~/maps/coverage";
import { useCoverage } from "~/maps/use-coverage";
import type { FieldMetadata } from "~/forms/ui/LeadForm";
import { PhoneText } from "~/forms/ui/PhoneText";

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * The booking's ZIP code and the service area's answer under it (DECISIONS
 * 30). Without JavaScript the answer is the server's, on "Show price" and on
 * submit: the field's error, with the link to the quote form when the ZIP is
 * outside the area. With JavaScript it is asked as soon as five digits are
 * typed (a GET the browser may cache) and said in a polite live region under
 * the field; the booking is checked again on the server before any charge.
 */
export function ServiceAreaField({
  meta,
  label,
  onOutside,
}: {
  meta: FieldMetadata<unknown>;
  label: string;
  /** Told the refusal when the ZIP typed is outside the area, else null (with JavaScript): no price is shown then. */
  onOutside?: (refusal: string | null) => void;
}) {
  const [typed, setTyped] = useState(() => text(meta.initialValue));
  const answer = useCoverage(typed);
  const note = answer ? coverageNote(answer) : null;
  const error = meta.errors?.[0];
  const outside = answer ? answer.status === "outside" : isOutsideAreaMessage(error);
  const refusal = answer?.status === "outside" ? (note?.text ?? null) : null;
  useEffect(() => {
    onOutside?.(refusal);
  }, [refusal, onOutside]);
  // The same words as the field's error are not said twice.
  const said = note && note.text !== error ? note : null;

  return (
    <TextInput
      key={meta.key}
      id={meta.id}
      name={meta.name}
      label={label}
      defaultValue={text(meta.initialValue)}
      onChange={(event) => setTyped(event.currentTarget.value)}
      withAsterisk
      aria-required
      autoComplete="postal-code"
      inputMode="numeric"
      maxLength={12}
      error={error ? <PhoneText text={error} /> : said?.error ? true : undefined}
      inputWrapperOrder={["label", "input", "error", "description"]}
      description={
        <span aria-live="polite" className="service-area-note">
          {said ? (
            <span className={said.error ? "form-field-error" : undefined}>
              <PhoneText text={said.text} />{" "}
            </span>
          ) : null}
          {outside ? <a href={OUTSIDE_QUOTE_PATH}>{OUTSIDE_QUOTE_LINK}</a> : null}
        </span>
      }
    />
  );
}
