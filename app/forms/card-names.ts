/**
 * The card fields' names, apart from their schema (card-schema.ts) so that a
 * page's own module can name them without pulling zod and the card checks in
 * before its first paint.
 */

/** Never in a summary, an e-mail or a log: the card's number and code (the expiry is not needed there either). */
export const CARD_FIELD_NAMES = ["cardNumber", "cardCVC", "cardExpMonth", "cardExpYear"];

/** Never sent back to the browser (re-typed after any refusal, a declined card included). */
export const CARD_SECRET_FIELDS = ["cardNumber", "cardCVC"] as const;
/** Said after a refused payment form that carried them. */
export const CARD_SECRETS_NOTICE = "For your security, the card number and CVC are not kept: please enter them again.";
