import { InputBase } from "@mantine/core";
import { Fragment, useEffect, useState } from "react";
import { IMask, IMaskInput } from "react-imask";
import { useFetcher } from "react-router";
import { checkCardNumber, splitExpiry } from "~/payments/card";
import { CARD_ENTRY_LABELS } from "../card-schema";
import type { FieldMetadata } from "./LeadForm";
import { TextField } from "./fields";

/**
 * THE card entry of every paid form (docs/decisions/059-one-card-entry.md): the booking, the
 * invoice, the booking's move and the checkout show the same fields with the same labels,
 * masks and messages — the cardholder's name (where the form asks it: the checkout's Full Name
 * is the cardholder's), the card number, the expiry as MM/YY in ONE field, and the CVC. Each is
 * a native input named as its form's payload (SPEC §3/§7): the expiry posts as cardExpMonth
 * ("12/29", no cardExpYear) on the booking and the invoice, as `expiry` on the checkout, and the
 * server reads every way a person types it ("12/29", "1229", "12 / 2029", "12/2029";
 * ~/payments/card.ts splitExpiry), so it works without JavaScript. JavaScript adds the number
 * grouped in fours with its brand and the expiry's MM/YY mask (react-imask). The number and CVC
 * are never filled in from the server (card-names.ts CARD_SECRET_FIELDS), and are remounted
 * empty after every answer of the enhanced form. Rendered as cells of the form's `.form-grid`.
 */
type Meta = FieldMetadata<unknown>;

/** The SPEC §3 card fields of the booking and the invoice (Conform's `fields` has them all). */
export type CardFieldsMeta = {
  cardHolder: Meta;
  cardNumber: Meta;
  cardExpMonth: Meta;
  cardCVC: Meta;
};

/** The card entry of a form whose payload is SPEC §3's: the expiry's one field is cardExpMonth. */
export function CardFields({ formId, fields }: { formId: string; fields: CardFieldsMeta }) {
  return (
    <CardEntry
      formId={formId}
      holder={fields.cardHolder}
      number={fields.cardNumber}
      expiry={fields.cardExpMonth}
      cvc={fields.cardCVC}
    />
  );
}

/**
 * The card entry, its fields named by the form (the checkout: cardNumber, expiry, cvv). A form
 * whose payload has no cardholder field (the checkout's Full Name is the cardholder's) says where
 * the name on the card comes from in `holderNote`, where the others show Cardholder Name.
 */
export function CardEntry({
  formId,
  holder,
  holderNote,
  number,
  expiry,
  cvc,
}: {
  formId: string;
  holder?: Meta;
  holderNote?: string;
  number: Meta;
  expiry: Meta;
  cvc: Meta;
}) {
  const answer = useAnswerCount(formId);
  return (
    <>
      {holder ? (
        <TextField
          meta={holder}
          label={CARD_ENTRY_LABELS.holder}
          required
          autoComplete="cc-name"
          className="form-span-2"
        />
      ) : holderNote ? (
        <p className="form-hint form-span-2 card-entry-holder">{holderNote}</p>
      ) : null}
      {/* Remounted empty after every answer: the card number and CVC are typed again. */}
      <Fragment key={`number-${answer}`}>
        <CardNumberField meta={number} />
      </Fragment>
      <ExpiryField meta={expiry} />
      <Fragment key={`cvc-${answer}`}>
        <CvcField meta={cvc} />
      </Fragment>
    </>
  );
}

/**
 * The card number and the CVC are sent `autocomplete="off"` (issue 38 item 4): a browser puts back
 * what was typed in a field when Back returns to its page, even a page it asks the server for
 * again, unless the field is "off", and Back after paying must show no card's digits. With
 * JavaScript the field then says what it is (`cc-number`, `cc-csc`), for the browser's saved
 * cards; a page left with JavaScript is restored by the script, whose fields are remounted empty.
 */
function useAutofillToken(id: string, token: "cc-number" | "cc-csc") {
  useEffect(() => {
    document.getElementById(id)?.setAttribute("autocomplete", token);
  }, [id, token]);
}

function CvcField({ meta }: { meta: Meta }) {
  useAutofillToken(meta.id, "cc-csc");
  return (
    <TextField
      meta={meta}
      label={CARD_ENTRY_LABELS.cvc}
      required
      autoComplete="off"
      inputMode="numeric"
      maxLength={4}
    />
  );
}

/**
 * A month typed alone before the slash is padded: "4" → "04", "1/" → "01/" (react-imask calls
 * this for every character; only the whole value's, not its blocks').
 */
function padMonth(ch: string, masked: { value: string; parent?: unknown }): string {
  if (masked.parent) return ch;
  if (masked.value === "" && /^[2-9]$/.test(ch)) masked.value = "0";
  else if (/^[/.\s-]$/.test(ch) && /^[1-9]$/.test(masked.value)) masked.value = `0${masked.value}`;
  return ch;
}

/** MM/YY as it is typed: the slash put in, the month 01–12, a year of two digits (or four, as autofill may give it). */
const EXPIRY_MASK = {
  mask: "MM/YY",
  blocks: {
    MM: { mask: IMask.MaskedRange, from: 1, to: 12, maxLength: 2 },
    YY: { mask: "00[00]" },
  },
  prepareChar: padMonth,
};

/** A kept expiry shown as the mask would show it ("1229", "12 / 2029" → "12/29", "12/2029"); anything else as typed. */
function shownExpiry(value: unknown): string {
  const typed = typeof value === "string" ? value : "";
  const parts = splitExpiry(typed);
  return parts ? `${parts.month.padStart(2, "0")}/${parts.year}` : typed;
}

/** The expiry in one field, as on the card. Without JavaScript a plain input: the server reads 12/29, 1229, 12 / 2029. */
export function ExpiryField({ meta }: { meta: Meta }) {
  return (
    <InputBase
      key={meta.key}
      component={IMaskInput}
      {...EXPIRY_MASK}
      id={meta.id}
      name={meta.name}
      label={CARD_ENTRY_LABELS.expiry}
      defaultValue={shownExpiry(meta.initialValue)}
      withAsterisk
      aria-required
      error={meta.errors?.[0]}
      autoComplete="cc-exp"
      inputMode="numeric"
      placeholder="MM/YY"
    />
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
export function CardNumberField({ meta }: { meta: Meta }) {
  const [brand, setBrand] = useState<string | undefined>();
  useAutofillToken(meta.id, "cc-number");
  return (
    <InputBase
      key={meta.key}
      component={IMaskInput}
      mask="0000 0000 0000 0000 000"
      id={meta.id}
      name={meta.name}
      label={CARD_ENTRY_LABELS.number}
      description={brand}
      withAsterisk
      aria-required
      error={meta.errors?.[0]}
      autoComplete="off"
      inputMode="numeric"
      className="form-span-2"
      onAccept={(value: string) => setBrand(checkCardNumber(value).brand)}
    />
  );
}
