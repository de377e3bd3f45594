import { PHONE_IN_TEXT, telHref } from "~/lib/company";

const PHONES = new RegExp(`(${PHONE_IN_TEXT.source})`, "g");

/**
 * A message with its phone numbers as tel: links (a tap calls from a phone), the rest text React
 * escapes: the refusals the server words ("… Call us at (989) 555-0102, …") beside their field,
 * in the error summary and by the button (issue 38 item 3). The mails do the same (mail/templates).
 */
export function PhoneText({ text }: { text: string }) {
  const parts = text.split(PHONES);
  if (parts.length === 1) return text;
  return parts.map((part, i) =>
    i % 2 === 0 ? (
      part
    ) : (
      <a key={i} href={telHref(part)} className="phone-link">
        {part}
      </a>
    ),
  );
}

/**
 * A summary entry's words split where its link to the field ends: the sentences before the first
 * phone number link to the field, the rest (with the number, a link of its own) follows as text,
 * since a link cannot hold another. Without a phone number the whole message is the link.
 */
export function splitAtPhone(message: string): { link: string; rest: string } {
  const at = message.search(PHONE_IN_TEXT);
  if (at < 0) return { link: message, rest: "" };
  const sentenceEnd = message.lastIndexOf(". ", at);
  const cut = sentenceEnd >= 0 ? sentenceEnd + 1 : at;
  return { link: message.slice(0, cut).trim(), rest: message.slice(cut).trim() };
}
