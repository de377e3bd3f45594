import { type Locator, type Page } from "@playwright/test";
import ICAL from "ical.js";
import { expect, test } from "../support/test";
import { TEST_CARDS, TEST_CVCS } from "../support/cards";
import { CARD_ENTRY, typeCardNumber } from "../support/card-entry";
import { closeE2eSql } from "../support/db";
import {
  addDays,
  asNewVisitor,
  dbRows,
  detroitHour,
  mailTo,
  mimeParts,
  modes,
  open,
  pickServiceDay,
  solveCaptcha,
  todayInDetroit,
  type MimePart,
} from "./helpers";

/**
 * What a booked visit leaves the visitor (issue 38 items 1 and 2, DECISIONS 37): a reminder due
 * 48 hours before the window (REMINDER_LEAD_HOURS), a day before online changes close, read from
 * its pg-boss job; an invitation attached once to each mail, whose parsed calendar has the
 * booking's page (URL), the address (LOCATION) and a reminder the evening before (VALARM), and
 * whose cancellation keeps the UID and raises the SEQUENCE; the booking's page saying until when
 * it can be changed; the cancel confirmation's heading with room above it; and, cancelled, "Book
 * another visit". A booking 5 days ahead, in a window of its own for each mode.
 */
test.afterAll(closeE2eSql);

const PATH = "/request-service?type=residential";
const SLOT = [
  { name: "Afternoon (11 AM to 2 PM)", hour: 11 },
  { name: "Late Afternoon (2 PM to 4 PM)", hour: 14 },
] as const;
const HOUR = 3_600_000;

function form(page: Page): Locator {
  return page.getByRole("form", { name: "Residential service booking form" });
}

/** The mail's attachments (what a client lists as files) and its calendar parts. */
function attachmentsOf(eml: string): { attached: MimePart[]; calendars: MimePart[] } {
  const parts = mimeParts(eml);
  return {
    attached: parts.filter((p) => /^Content-Disposition: attachment/im.test(p.headers)),
    calendars: parts.filter((p) => /^Content-Type: (text\/calendar|application\/ics)/im.test(p.headers)),
  };
}

/** The one invitation of a mail, parsed by ical.js: its METHOD and its event. */
function invitationOf(eml: string) {
  const { attached, calendars } = attachmentsOf(eml);
  expect(attached, "one attachment").toHaveLength(1);
  expect(calendars, "the calendar once, as that attachment").toHaveLength(1);
  expect(calendars[0]).toBe(attached[0]);
  expect(attached[0]!.headers).toMatch(/filename="?service-visit\.ics"?/);
  const calendar = new ICAL.Component(ICAL.parse(calendars[0]!.body));
  const event = calendar.getFirstSubcomponent("vevent")!;
  expect(event).not.toBeNull();
  return { method: String(calendar.getFirstPropertyValue("method")), event };
}

for (const [index, mode] of modes.entries()) {
  test.describe(`a visit booked 5 days ahead, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });

    test("its reminder is due 48 hours before the window; the invitation, attached once, has URL, LOCATION and VALARM; cancelled, it is withdrawn and the page offers another visit", async ({
      page,
    }) => {
      test.slow(); // a booking, two mails, a cancellation
      const visitor = await asNewVisitor(page);
      const date = addDays(todayInDetroit(), 5);
      const slot = SLOT[index]!;
      await open(page, PATH, mode.javaScriptEnabled);
      const f = form(page);
      await f.getByRole("textbox", { name: "Name", exact: true }).fill(`Mary Jackson ${visitor.tag}`);
      await f.getByLabel("Phone").fill("(810) 555-0143");
      await f.getByLabel("Email").fill(visitor.email);
      await f.getByLabel("Address Line 1").fill("88 Saginaw St");
      await f.getByLabel("City").fill("Flint");
      await f.getByLabel("ZIP Code").fill("48502");
      await f.getByLabel("Preferred contact method").selectOption("Email");
      if (mode.javaScriptEnabled) {
        await pickServiceDay(page, date);
        await f.getByRole("radio", { name: slot.name }).check();
      } else {
        await f.getByLabel("Service Date").fill(date);
        await f.getByLabel("Service Time").selectOption(slot.name);
      }
      await f.getByLabel(CARD_ENTRY.holder).fill("Mary Jackson");
      await typeCardNumber(f, mode.javaScriptEnabled, TEST_CARDS.approve);
      await f.getByLabel(CARD_ENTRY.expiry).fill("04/30");
      await f.getByLabel(CARD_ENTRY.cvc).fill(TEST_CVCS.three);
      await solveCaptcha(page, mode.javaScriptEnabled, f);
      await f.getByRole("button", { name: "Book and Pay" }).click();
      await expect(page).toHaveURL(/\/booking\/[A-Za-z0-9_-]{43}\?booked/);
      const bookingUrl = page.url().replace(/\?.*$/, "");
      const reference = (await page.getByText(/^Booking reference: DV-/).innerText()).replace(
        "Booking reference: ",
        "",
      );

      // The reminder's job: due 48 real hours before the window starts, in Detroit time.
      const windowStart = detroitHour(date, slot.hour);
      const [job] = await dbRows<{ due_ms: string | number; state: string }>(
        `select extract(epoch from j.start_after)::float8 * 1000 as due_ms, j.state::text as state
           from pgboss.job j join service_requests s on j.singleton_key = 'booking:' || s.id
          where j.name = 'booking-reminder' and s.email = $1`,
        visitor.email,
      );
      expect(job?.state).toBe("created");
      expect(new Date(Number(job!.due_ms)).toISOString()).toBe(
        new Date(windowStart.getTime() - 48 * HOUR).toISOString(),
      );

      // The page says until when it can be moved or cancelled online: the 24-hour cut-off.
      await expect(
        page.getByText(
          /^You can move or cancel this visit on your booking's page until \d{1,2}(:\d\d)? (AM|PM) on \w+day, \w+ \d{1,2}\.$/,
        ),
      ).toBeVisible();

      // The receipt: the invitation once, with the booking's page, the address and the evening-before alarm.
      const receipt = await mailTo(visitor.email);
      const booked = invitationOf(receipt.eml);
      expect(booked.method).toBe("REQUEST");
      expect(booked.event.getFirstPropertyValue("url")).toBe(bookingUrl);
      expect(booked.event.getFirstPropertyValue("location")).toBe("88 Saginaw St, Flint, MI 48502");
      const description = String(booked.event.getFirstPropertyValue("description"));
      expect(description).toContain(`Booking reference: ${reference}`);
      expect(description).toContain(`Your booking's page: ${bookingUrl}`);
      expect(booked.event.getFirstPropertyValue("sequence")).toBe(0);
      const start = booked.event.getFirstPropertyValue("dtstart") as ICAL.Time;
      expect(start.toJSDate().toISOString()).toBe(windowStart.toISOString());
      // Two reminders (issue 45 item 8): 6 PM the evening before online changes close (24 hours
      // before the window), with the page's link; and 6 PM the evening before, saying to call.
      const alarms = booked.event.getAllSubcomponents("valarm");
      expect(alarms).toHaveLength(2);
      const rings = alarms.map((alarm) => {
        expect(String(alarm.getFirstPropertyValue("action"))).toBe("DISPLAY");
        const trigger = alarm.getFirstPropertyValue("trigger") as ICAL.Duration;
        return windowStart.getTime() + trigger.toSeconds() * 1000;
      });
      expect(rings).toEqual([
        detroitHour(addDays(date, -2), 18).getTime(),
        detroitHour(addDays(date, -1), 18).getTime(),
      ]);
      expect(String(alarms[0]!.getFirstPropertyValue("description"))).toMatch(
        /You can still move or cancel it online until \d{1,2} (AM|PM) on \w+day, /,
      );
      expect(String(alarms[0]!.getFirstPropertyValue("description"))).toContain(bookingUrl);
      expect(String(alarms[1]!.getFirstPropertyValue("description"))).toContain(
        "Online changes have closed: to change it, call us at (810) 555-0100.",
      );
      const receiptText = mimeParts(receipt.eml).find((p) => /^Content-Type: text\/plain/im.test(p.headers))!.body;
      expect(receiptText.replace(/\s+/g, " ")).toContain(
        "You can move or cancel this visit on your booking's page until",
      );

      // Cancel: the confirmation's heading has room above it, then the visit is cancelled.
      await page.getByRole("link", { name: "Cancel booking" }).click();
      const heading = page.getByRole("heading", { name: "Cancel this visit?" });
      await expect(heading).toBeVisible();
      await expect(heading).toBeInViewport({ ratio: 1 });
      // The page scrolled to it (#cancel-confirm-title), and left room above it for its focus ring.
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      expect((await heading.boundingBox())!.y).toBeGreaterThanOrEqual(16);
      await page.getByRole("button", { name: "Yes, cancel my visit" }).click();
      await expect(page.getByText(/^Your booking is cancelled\./)).toBeVisible();
      await expect(page.getByRole("link", { name: "Book another visit" })).toHaveAttribute("href", PATH);
      // Its reminder went with it.
      expect(
        await dbRows(
          `select j.id from pgboss.job j join service_requests s on j.singleton_key = 'booking:' || s.id
            where j.name = 'booking-reminder' and s.email = $1 and j.state = 'created'`,
          visitor.email,
        ),
      ).toHaveLength(0);

      // Its mail withdraws the invitation: attached once, METHOD:CANCEL, the same UID, SEQUENCE 1, no alarm.
      let cancelled: ReturnType<typeof invitationOf> | undefined;
      await expect
        .poll(
          async () => {
            cancelled = invitationOf((await mailTo(visitor.email)).eml);
            return cancelled.method;
          },
          { timeout: 30_000 },
        )
        .toBe("CANCEL");
      expect(cancelled!.event.getFirstPropertyValue("uid")).toBe(booked.event.getFirstPropertyValue("uid"));
      expect(cancelled!.event.getFirstPropertyValue("sequence")).toBe(1);
      expect(cancelled!.event.getFirstPropertyValue("url")).toBe(bookingUrl);
      expect(cancelled!.event.getAllSubcomponents("valarm")).toHaveLength(0);
    });
  });
}
