/**
 * Last line of defence for texts that come from elsewhere (a processor's
 * message, an exception's text) before they are stored, shown or logged: any
 * run of 12 to 19 digits, grouped with spaces or dashes or not, is cut out.
 * Our own code never puts a card number in a text in the first place; this
 * guards against a processor or a library that echoes one.
 */
const CARD_LIKE = /\d(?:[ -]?\d){11,18}/g;

export function scrubCardNumbers(text: string): string {
  return text.replace(CARD_LIKE, "[redacted]");
}
