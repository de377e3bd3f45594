/** Domains whose mailboxes ignore dots in the local part; the second is another name of the first. */
const GMAIL = "gmail.com";
const GMAIL_ALIASES = new Set([GMAIL, "googlemail.com"]);

/**
 * The mailbox an address delivers to, as the key the visitor-confirmation
 * cap counts by (app/mail/outbox.server.ts, issue 28 item 7): in lower case,
 * a `+tag` in the local part dropped (`victim+1@example.org` is
 * `victim@example.org`'s mailbox), and at Gmail the dots in the local part
 * dropped and googlemail.com read as gmail.com. Only the count uses it: a mail
 * still goes to the address as typed.
 */
export function mailboxKey(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at <= 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_ALIASES.has(domain)) {
    domain = GMAIL;
    local = local.replaceAll(".", "") || local;
  }
  return `${local}@${domain}`;
}
