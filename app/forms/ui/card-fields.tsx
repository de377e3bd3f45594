import { InputBase } from "@mantine/core";
import { Fragment, useEffect, useState } from "react";
import { IMaskInput } from "react-imask";
import { useFetcher } from "react-router";
import { checkCardNumber } from "~/payments/card";
import { cardLabels } from "../card-schema";
import type { FieldMetadata } from "./LeadForm";
import { TextField } from "./fields";

/**
 * The card of every paid form (the invoice, the residential service): SPEC
 * §3's cardHolder, cardNumber, cardExpMonth, cardExpYear and cardCVC, each a
 * native input named as SPEC §7's payload (the expiry as two inputs, so the
 * form posts them without JavaScript too). JavaScript adds the number grouped
 * in fours (react-imask) and its brand. The number and CVC are never filled in
 * from the server (card-names.ts CARD_SECRET_FIELDS), and are remounted empty
 * after every answer of the enhanced form. Rendered as cells of the form's
 * `.form-grid`.
 */
type Meta = FieldMetadata<unknown>;

export type CardFieldsMeta = {
  cardHolder: Meta;
  cardNumber: Meta;
  cardExpMonth: Meta;
  cardExpYear: Meta;
  cardCVC: Meta;
};

export function CardFields({ formId, fields }: { formId: string; fields: CardFieldsMeta }) {
  const answer = useAnswerCount(formId);
  return (
    <>
      <TextField
        meta={fields.cardHolder}
        label={cardLabels.cardHolder}
        required
        autoComplete="cc-name"
        className="form-span-2"
      />
      {/* Remounted empty after every answer: the card number and CVC are typed again. */}
      <Fragment key={`number-${answer}`}>
        <CardNumberField meta={fields.cardNumber} />
      </Fragment>
      <TextField
        meta={fields.cardExpMonth}
        label={cardLabels.cardExpMonth}
        required
        autoComplete="cc-exp-month"
        inputMode="numeric"
        maxLength={2}
        placeholder="MM"
      />
      <TextField
        meta={fields.cardExpYear}
        label={cardLabels.cardExpYear}
        required
        autoComplete="cc-exp-year"
        inputMode="numeric"
        maxLength={2}
        placeholder="YY"
      />
      <Fragment key={`cvc-${answer}`}>
        <TextField
          meta={fields.cardCVC}
          label={cardLabels.cardCVC}
          required
          autoComplete="cc-csc"
          inputMode="numeric"
          maxLength={4}
        />
      </Fragment>
    </>
  );
}

/**
 * How many answers the enhanced form has had (LeadForm's fetcher, shared by its key).
 * Without JavaScript each answer is a new page, whose secret fields the server left empty.
 */
export function useAnswerCount(formId: string): number {
  const fetcher = useFetcher({ key: `lead-form-${formId}` });
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (fetcher.data) setCount((n) => n + 1);
  }, [fetcher.data]);
  return count;
}

/** The card number grouped in fours as it is typed (react-imask), with its brand once it is known. */
export function CardNumberField({ meta, label = cardLabels.cardNumber }: { meta: Meta; label?: string }) {
  const [brand, setBrand] = useState<string | undefined>();
  return (
    <InputBase
      key={meta.key}
      component={IMaskInput}
      mask="0000 0000 0000 0000 000"
      id={meta.id}
      name={meta.name}
      label={label}
      description={brand}
      withAsterisk
      aria-required
      error={meta.errors?.[0]}
      autoComplete="cc-number"
      inputMode="numeric"
      className="form-span-2"
      onAccept={(value: string) => setBrand(checkCardNumber(value).brand)}
    />
  );
}
