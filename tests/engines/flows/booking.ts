import { SERVICE_TIMES } from "../../../app/forms/options";
import { calendarDay, dayAhead, enterCard, fail, passSpamCheck, pickDay, see, seeUrl, type Flow } from "../flow";
import { until, type Driver } from "../driver";

const FORM = 'form[aria-label="Residential service booking form"]';
const MOVE = "form.booking-move";
const MORNING = SERVICE_TIMES[0];
const EVENING = SERVICE_TIMES[3];

/** "Tuesday, December 15, 2026", as the booking's page names the visit's day. */
function pageDay(date: string): string {
  return `${calendarDay(date)}, ${date.slice(0, 4)}`;
}

/** The booking's facts (status, visit, price) as the page lists them. */
const facts = { css: "dl.booking-facts" };

/** Every field of the booking but the visit and the card, as a visitor fills them. */
export async function fillVisitor(d: Driver, email: string, zip: string, city: string): Promise<void> {
  await d.fill({ within: FORM, label: "Name" }, "Ada Lovelace");
  await d.fill({ within: FORM, label: "Phone" }, "8105550142");
  await d.fill({ within: FORM, label: "Email" }, email);
  await d.fill({ within: FORM, label: "Address Line 1" }, "415 Court St");
  await d.fill({ within: FORM, label: "City" }, city);
  await d.fill({ within: FORM, label: "ZIP Code" }, zip);
  await d.select({ within: FORM, label: "Preferred contact method" }, "Text");
  await d.fill({ within: FORM, label: "Describe the problem" }, "The spring snapped; the door will not open.");
}

/**
 * Book and pay a weekday morning ($129.95) with the calendar and 4242…; on the booking's page, move
 * it to another weekday's evening ($159.95: $30.00 more, paid with the card entered again), then
 * cancel it. The payment sentences of the booking's page are the business of its own specs
 * (tests/e2e/forms/residential.spec.ts): here the amounts, the visit and the status the page shows.
 */
export const booking: Flow = {
  name: "book and pay a visit, move it, cancel it",
  async run(d, { index, tag, shot }) {
    const date = dayAhead(2 + index); // Firefox a Tuesday, WebKit a Wednesday
    const later = dayAhead(4 + index); // then the Thursday or Friday
    await d.goto("/request-service?type=residential");
    await see(d, "h1", "Request Service");
    await fillVisitor(d, `ada.${tag}@example.com`, "48502", "Flint");

    await pickDay(d, FORM, date);
    await shot("calendar", { within: FORM, css: ".service-visit-date" });
    await see(d, { within: FORM, css: ".service-slots" }, calendarDay(date));
    await d.click({ within: FORM, label: MORNING });
    await see(d, { within: FORM, css: ".service-total" }, "Total: $129.95");
    await enterCard(d, FORM, "Ada Lovelace");
    await passSpamCheck(d, FORM);
    await d.click({ within: FORM, css: "button[type=submit]", text: "Book and Pay" });

    // The booking's own page is the receipt.
    await seeUrl(d, /\/booking\/[A-Za-z0-9_-]{43}\?booked/);
    await see(d, "p.booking-reference", /^Booking reference: DV-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
    await see(d, facts, `${pageDay(date)}, ${MORNING}`);
    await see(d, facts, "$129.95");
    await see(d, facts, /Status Booked\b/);

    // Moved to an evening two days later: the difference shown, then charged.
    await d.click({ css: "a", text: "Move my visit" });
    await d.waitFor(MOVE);
    await pickDay(d, MOVE, later);
    await d.click({ within: MOVE, label: EVENING });
    const change = await see(d, { within: MOVE, css: ".service-total" }, "$159.95");
    if (!change.includes("$30.00")) fail(`the move's price says "${change}", without the $30.00 difference`);
    await enterCard(d, MOVE, "Ada Lovelace");
    await d.click({ within: MOVE, css: "button[type=submit]", text: "Move my visit" });
    await seeUrl(d, /\?moved/);
    await see(d, facts, `${pageDay(later)}, ${EVENING}`);
    await see(d, facts, /Status [^]*moved/i);
    await see(d, facts, "$159.95");
    await see(d, "#booking", "$30.00");

    // Cancelled, after the confirmation.
    await d.click({ css: "a", text: "Cancel booking" });
    await see(d, "#cancel-confirm-title", "Cancel this visit?");
    await d.click({ css: "button[type=submit]", text: "Yes, cancel my visit" });
    await see(d, facts, /Status Cancelled/i);
    // What moved, from the ledger: nothing paid now, both charges cancelled before they were taken.
    await see(d, facts, /Payment \$0\.00/);
    await see(d, "#booking", "$129.95 charge was cancelled before it was taken");
    await see(d, "#booking", "$30.00 charge was cancelled before it was taken");
    await d.waitFor({ css: "a", text: "Cancel booking" }, { gone: true });
    await d.waitFor({ css: "a", text: "Move my visit" }, { gone: true });
  },
};

/** A booking to Traverse City (ZIP 49684, outside every service circle) is refused before any charge. */
export const refusedBooking: Flow = {
  name: "a booking outside the service area is refused",
  async run(d, { index, tag, shot }) {
    const date = dayAhead(2 + index, 1);
    await d.goto("/request-service?type=residential");
    await fillVisitor(d, `grace.${tag}@example.com`, "49684", "Traverse City");
    // Answered under the ZIP as soon as it has five digits.
    await see(d, { within: FORM, css: ".service-area-note" }, "49684");
    await pickDay(d, FORM, date);
    await d.click({ within: FORM, label: MORNING });
    await enterCard(d, FORM, "Grace Hopper");
    await passSpamCheck(d, FORM);
    await d.click({ within: FORM, css: "button[type=submit]", text: "Book and Pay" });
    // Refused above the form, with the nearest location; still the form, nothing booked.
    const refusal = await see(d, ".error-summary", /There is a problem[^]*49684/);
    if (!refusal.includes("Saginaw")) fail("the refusal does not name the nearest location, Saginaw");
    // Focused, and in view (Firefox's focus() once left it above the view).
    const focused = await until("the error summary to have focus", async () => {
      const f = await d.focused();
      return f?.className.includes("error-summary") ? f : undefined;
    });
    if (focused.top < 0 || focused.top > focused.viewHeight)
      fail(`the focused error summary is out of view (its top at ${focused.top}px of ${focused.viewHeight}px)`);
    await seeUrl(d, /\/request-service\?type=residential/);
    await shot("refused-out-of-area", ".error-summary");
    await shot("refused-out-of-area-zip", { within: FORM, css: "label", text: "ZIP Code" });
  },
};
