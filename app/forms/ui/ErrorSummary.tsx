import { useEffect, useRef } from "react";
import { SPAM_CHECK_ENTRY, SPAM_CHECK_MESSAGE, spamCheckId } from "../captcha/types";
import { PhoneText, splitAtPhone } from "./PhoneText";

/**
 * The error summary at the top of a refused form (issue 31; the GOV.UK Design System's pattern):
 * "There is a problem", the answer's message, and one link per field in error, in the form's
 * order, each moving focus to its field. Each problem is said once (issue 38): what the links say
 * is left out of the message above them, and a phone number in a refusal is a tel: link of its
 * own after its field's link. Without JavaScript the form posts to `#{summary id}`
 * (./LeadForm.tsx), so the refused page opens here and a link is an ordinary fragment (the
 * browser focuses the field it names; forms.css's scroll-margin keeps its label in view). With
 * JavaScript the summary takes focus when it appears, and a link focuses the field and scrolls
 * its label into view.
 */
export type SummaryEntry = {
  name: string;
  target: string;
  message: string;
  /** A way on said after the entry (the quote form for a ZIP outside the area). */
  more?: { href: string; text: string };
};

/** The way on a form gives after one of its refusals, or null. */
export type SummaryLinkOf = (message: string) => { href: string; text: string } | null;

export const ERROR_SUMMARY_TITLE = "There is a problem";
/** Said by the photo field and the summary when a refused page lost the photos chosen for it. */
export const CHOOSE_PHOTOS_AGAIN = "Choose your photos again.";

export function ErrorSummary({
  id,
  formId,
  message,
  notice,
  entries,
  focusKey,
}: {
  id: string;
  /** The form whose fields the links name. */
  formId: string;
  message: string;
  notice?: string;
  entries: SummaryEntry[];
  /** Changes with each refusal (a count, or the refusal's own object): the summary takes focus again (null: leave focus where it is). */
  focusKey: number | object | null;
}) {
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    // Scrolled into view, then focused without a scroll of its own, once the frame is laid out:
    // in Firefox the view was left on the field being typed in, the summary focused above it.
    if (focusKey === null) return;
    const frame = requestAnimationFrame(() => {
      box.current?.scrollIntoView({ block: "start" });
      box.current?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [focusKey]);
  const titleId = `${id}-title`;
  const said = unsaid(message, entries);
  return (
    // A region named by its heading: focused, it is read as "There is a problem, region" and then its content.
    <section id={id} ref={box} className="error-summary" tabIndex={-1} aria-labelledby={titleId}>
      <h2 id={titleId} className="error-summary-title">
        {ERROR_SUMMARY_TITLE}
      </h2>
      {said ? (
        <p className="error-summary-message">
          <PhoneText text={said} />
        </p>
      ) : null}
      {notice ? (
        <p className="error-summary-notice">
          <PhoneText text={notice} />
        </p>
      ) : null}
      {entries.length > 0 ? (
        <ul className="error-summary-list">
          {entries.map((entry) => {
            const { link, rest } = splitAtPhone(entry.message);
            return (
              <li key={entry.name}>
                <a href={`#${entry.target}`} onClick={(event) => focusField(event, formId, entry)}>
                  {link || entry.message}
                </a>
                {link && rest ? (
                  <>
                    {" "}
                    <PhoneText text={rest} />
                  </>
                ) : null}
                {entry.more ? (
                  <>
                    {" "}
                    <a href={entry.more.href}>{entry.more.text}</a>
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The message less what the entries say (a refusal of one field is its own entry; "Please correct
 * the highlighted fields… Please complete the spam check." keeps its first sentence), or "".
 */
export function unsaid(message: string, entries: Pick<SummaryEntry, "message">[]): string {
  let rest = message;
  for (const entry of entries) if (entry.message) rest = rest.split(entry.message).join(" ");
  return rest.replace(/\s+/g, " ").trim();
}

/**
 * The summary's links: each field in error with its first message, in the form's order (its
 * schema's, which the forms follow: ../schema-helpers.ts), the photos last (they come after the
 * captcha), and the photos a refused page lost when nothing else is wrong with them.
 */
export function summaryEntries(
  formId: string,
  errors: Record<string, string[] | undefined>,
  {
    order = [],
    photos = null,
    photosDropped = null,
    spamCheck = false,
  }: { order?: string[]; photos?: string | null; photosDropped?: string | null; spamCheck?: boolean } = {},
): SummaryEntry[] {
  const entries = Object.entries(errors).flatMap(([name, messages]) =>
    name && messages?.[0] ? [{ name, target: `${formId}-${name}`, message: messages[0] }] : [],
  );
  if (photosDropped && !entries.some((e) => e.name === photosDropped))
    entries.push({ name: photosDropped, target: `${formId}-${photosDropped}`, message: CHOOSE_PHOTOS_AGAIN });
  // The spam check comes after the fields and before the photos, where the form has it.
  if (spamCheck) entries.push({ name: SPAM_CHECK_ENTRY, target: spamCheckId(formId), message: SPAM_CHECK_MESSAGE });
  const rank = (name: string) =>
    name === photos || name === photosDropped
      ? order.length + 1
      : name === SPAM_CHECK_ENTRY
        ? order.length + 0.5
        : order.includes(name)
          ? order.indexOf(name)
          : order.length;
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry.name) - rank(b.entry.name) || a.index - b.index)
    .map(({ entry }) => entry);
}

const FOCUSABLE =
  'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]):not([data-disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * With JavaScript: focus the field without changing the URL, and show its label (or legend) above
 * it (GOV.UK's pattern; forms.css leaves a little room above the label). A field drawn by a widget
 * is found by its name (the booking's window radios), inside the place that names the link's
 * target in `data-summary-place` (the spam check, whose id is its no-JS sum's: the widget's
 * checkbox, or the place itself before the widget has loaded; the place is shown whole, its error
 * first), or is the group that carries its id with tabindex -1 (the booking calendar, whose date
 * is a hidden input).
 */
function focusField(event: React.MouseEvent<HTMLAnchorElement>, formId: string, entry: SummaryEntry) {
  const form = document.getElementById(formId);
  const byId = document.getElementById(entry.target);
  const place = byId ? null : document.querySelector<HTMLElement>(`[data-summary-place="${CSS.escape(entry.target)}"]`);
  const byName = form
    ? Array.from(form.querySelectorAll<HTMLElement>(`[name="${CSS.escape(entry.name)}"]`)).find((el) =>
        el.matches(FOCUSABLE),
      )
    : undefined;
  const field =
    (byId?.matches(FOCUSABLE) ? byId : undefined) ??
    place?.querySelector<HTMLElement>(FOCUSABLE) ??
    place ??
    byName ??
    // A group made focusable for this (the booking calendar, its windows before a day is chosen).
    (byId?.hasAttribute("tabindex") ? byId : undefined);
  if (!field) return; // the fragment does what it can
  event.preventDefault();
  const label =
    place ??
    field.closest("fieldset")?.querySelector("legend") ??
    (field.id ? document.querySelector(`label[for="${CSS.escape(field.id)}"]`) : null) ??
    field;
  label.scrollIntoView({ block: "start" });
  field.focus({ preventScroll: true });
}
