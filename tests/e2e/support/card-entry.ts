import { expect, type Locator, type Page } from "@playwright/test";
import { cardNumberForms } from "./cards";

/**
 * The card entry every paid form shows (app/forms/ui/card-fields.tsx, docs/decisions/059): the
 * same fields, labels and masks on the booking, the invoice and the checkout, whatever names
 * they post. The specs type cards through these, so a difference between the forms fails here.
 */
export const CARD_ENTRY = {
  holder: "Cardholder Name",
  number: "Card Number",
  expiry: "Expiry (MM/YY)",
  cvc: "CVC",
} as const;

/** The card number as a visitor types it: with JavaScript digit by digit (grouped in fours as typed). */
export async function typeCardNumber(scope: Locator, javaScriptEnabled: boolean, card: string): Promise<void> {
  const input = scope.getByLabel(CARD_ENTRY.number);
  if (javaScriptEnabled) {
    await input.pressSequentially(cardNumberForms(card).digits);
    await expect(input).toHaveValue(card);
  } else {
    await input.fill(card);
  }
}

/**
 * The expiry as a visitor types it: with JavaScript key by key into the MM/YY mask, which puts
 * the slash in (`shown`); without it the text as typed, which the server reads ("1229", "12/29").
 */
export async function typeExpiry(
  scope: Locator,
  javaScriptEnabled: boolean,
  typed = "0430",
  shown = "04/30",
): Promise<void> {
  const input = scope.getByLabel(CARD_ENTRY.expiry);
  if (javaScriptEnabled) {
    await input.clear(); // a form sent back keeps its expiry: typed over, as a person would select it first
    await input.pressSequentially(typed);
    await expect(input).toHaveValue(shown);
  } else {
    await input.fill(typed);
  }
}

/**
 * After a declined card the form's captcha is still passed: with JavaScript the widget is still
 * ticked (not reset) and the answer's pass goes with the next post; without it the page says so
 * instead of asking a new sum.
 */
export async function expectCaptchaKept(scope: Locator, javaScriptEnabled: boolean): Promise<void> {
  await expect(scope.locator('input[name="captcha_pass"]')).toHaveValue(/.{40,}/);
  if (javaScriptEnabled) {
    // The widget still says it is verified: nothing to tick.
    await expect(scope.getByRole("checkbox", { name: "Verified" })).toBeChecked();
  } else {
    // In <noscript> (Playwright's getByText does not look there; a located element's text is found).
    await expect(scope.locator("p", { hasText: "You answered the spam check with this form already" })).toBeVisible();
    await expect(scope.locator('input[name="captcha_answer"]')).toHaveCount(0);
  }
}

/**
 * Back shows no card (issue 38 item 4): no field of the page holds a card number's digits or the
 * CVC that was typed, whether the server put them there or the browser restored what was typed
 * before the page was left (its form-state restoration, its back/forward cache).
 */
export async function expectNoCardInFields(page: Page, typed: { cards: string[]; cvc: string }): Promise<void> {
  const values = await page
    .locator("input:not([type=hidden]), textarea")
    .evaluateAll((fields) =>
      fields.map((f) => ({ name: f.getAttribute("name"), value: (f as HTMLInputElement).value })),
    );
  const digits = typed.cards.map((card) => cardNumberForms(card).digits);
  for (const { name, value } of values) {
    const bare = value.replace(/\D/g, "");
    expect(digits.some((d) => bare.length >= 6 && d.includes(bare)) ? `${name}: ${value}` : null).toBeNull();
    if (/cvc|cvv|csc/i.test(name ?? "")) expect(value, `${name} after Back`).toBe("");
  }
}
