import { NativeSelect, Radio, TextInput } from "@mantine/core";
import { DatePicker, DatesProvider } from "@mantine/dates";
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from "react";
import { useLocation } from "react-router";
import { centsToDecimal, formatUsd } from "~/payments/money";
import { EVENING_SLOT, isServiceTime, type ServiceTime } from "~/booking/service-price";
import { todayInDetroit } from "~/lib/company-time";
import { useHydrated } from "~/shell/hydrated";
import { SERVICE_TIMES } from "~/forms/options";
import { FieldError, RequiredMark } from "~/forms/ui/fields";
import type { FieldMetadata } from "~/forms/ui/LeadForm";
import { dayRefusal, dayState, openSlots, type Availability } from "../availability";
import { dayPriceLabel, dayPriceRange, formatServiceDay, freeSlotsText, slotPrice, slotStatus } from "./calendar";
import { PREVIEW_FIELD, PREVIEW_VALUE } from "./identity";
import { residentialLabels } from "./schema";
// The calendar's styles travel with this chunk: only the booking form and a booking's move form need them.
import "./dates.css";
// The room the calendar takes, in the server's HTML (see VisitRoom).
import roomCss from "./visit-room.css?inline";

/**
 * The visit's day and window, chosen two ways (the booking form, and moving a booked visit on its
 * page). Without JavaScript (the server's render, and the first client render so hydration
 * matches): a native date input, a window select whose full windows are disabled for the date the
 * server kept, and a "Show price" button that posts the form to be re-rendered with that date's
 * price and free windows. Once hydrated: a calendar showing each day's price (full and
 * unbookable days greyed out), the chosen day's windows as radio buttons with their price and
 * places left, and the live total. Either way the names posted are SPEC §7's (serviceDate,
 * serviceTime, total); the price charged is the server's (~/booking/service-price.ts).
 *
 * No jump when the calendar replaces the native inputs (docs/decisions/064): in a browser that
 * runs scripts (CSS `@media (scripting: enabled)`), the native inputs sit over an invisible copy
 * of the calendar's frame (`VisitFrame` with `shadow`), which holds the room the calendar takes;
 * without scripts the copy is not displayed and the native inputs lay out as they always have.
 */
export function VisitFields({
  date,
  time,
  availability,
  typed,
  onPick,
  withTotal = true,
  priced = true,
  booked,
}: {
  date: Meta;
  time: Meta;
  availability: Availability;
  /** What the visitor typed in the native inputs before hydration replaced them. */
  typed: RefObject<Typed>;
  /** Told the day and window as the visitor picks them (with JavaScript). */
  onPick?: (date: string | null, time: ServiceTime | null) => void;
  /** The live "Total: $…" line (a booking); a move says what the change costs instead. */
  withTotal?: boolean;
  /**
   * False when the form's answer refused what the price depends on (a ZIP outside the service
   * area): the no-JS form shows no price, and its "Show price" anchor is the error summary's.
   */
  priced?: boolean;
  /**
   * The visit a booking has (moving it): the calendar opens on its month and marks its day and
   * window "Your visit", which is not a new choice.
   */
  booked?: BookedVisit;
}) {
  const hydrated = useHydrated();
  const visit = hydrated ? (
    // A new key when Conform resets the form (after a booking): the picker starts empty again.
    <VisitPicker
      key={`${date.key}-${time.key}`}
      date={date}
      time={time}
      availability={availability}
      typed={typed}
      onPick={onPick}
      withTotal={withTotal}
      priced={priced}
      booked={booked}
    />
  ) : (
    <VisitNative
      date={date}
      time={time}
      availability={availability}
      typed={typed}
      withTotal={withTotal}
      priced={priced}
    />
  );
  return (
    <>
      <VisitRoom />
      {visit}
    </>
  );
}

/**
 * visit-room.css, inlined in the document's head by React (a hoisted <style>, once however many
 * forms render it), in the server's HTML: the room is held from the first paint, before the
 * form's code and its stylesheet (dates.css) arrive. No request of its own on a slow network.
 */
function VisitRoom() {
  return (
    <style href="service-visit-room" precedence="service-visit">
      {roomCss}
    </style>
  );
}

type Meta = FieldMetadata<unknown>;
export type Typed = { date?: string; time?: string };
/** A booked visit: its day (YYYY-MM-DD) and window. */
export type BookedVisit = { date: string; time: string };
/** What marks the booked visit in the calendar, its window and the move page. */
export const YOUR_VISIT = "Your visit";

/** Where the no-JS "Show price" answer opens: the price under the visit (the date field's id + "-preview"). */
export const visitPreviewId = (dateFieldId: string) => `${dateFieldId}-preview`;
type VisitProps = {
  date: Meta;
  time: Meta;
  availability: Availability;
  typed: RefObject<Typed>;
  onPick?: (date: string | null, time: ServiceTime | null) => void;
  withTotal?: boolean;
  priced?: boolean;
  booked?: BookedVisit;
};

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Within the bookable range, so the slots' availability means something. */
function bookable(a: Availability, date: string): boolean {
  return formatServiceDay(date) !== null && date >= a.from && date <= a.until;
}

/**
 * The price line of the no-JS form for the kept date and slot: "Price: $159.00";
 * without a slot on a weekday, the day's price and the evening's.
 */
function previewPrice(date: string, time: string): string | null {
  if (isServiceTime(time)) {
    const price = slotPrice(date, time);
    return price !== null ? `Price: ${formatUsd(price)}` : null;
  }
  const day = slotPrice(date, SERVICE_TIMES[0]);
  const evening = slotPrice(date, EVENING_SLOT);
  if (day === null || evening === null) return null;
  return day === evening
    ? `Price: ${formatUsd(day)}`
    : `Price: ${formatUsd(day)} (${formatUsd(evening)} for the evening)`;
}

/** The visit without JavaScript: native date input, slot select, and "Show price". */
function VisitNative({ date, time, availability, typed, withTotal = true, priced = true }: VisitProps) {
  const keptDate = text(date.initialValue);
  const keptTime = text(time.initialValue);
  const checked = bookable(availability, keptDate);
  // A kept day with no window left says so on the date (the server says it of a past day and of today after 4 PM).
  const dateError = date.errors?.[0] ?? (checked ? dayRefusal(availability, keptDate) : null) ?? undefined;
  const options = SERVICE_TIMES.map((slot) => {
    const status = checked ? slotStatus(availability, keptDate, slot) : { open: true, text: "" };
    return {
      value: slot,
      label: status.open ? slot : `${slot} — ${status.text.toLowerCase()}`,
      disabled: !status.open,
    };
  });
  // A closed slot is not preselected: a disabled option would not be posted.
  const keptOpen = options.some((o) => o.value === keptTime && !o.disabled);
  const price = priced && keptDate && keptDate >= availability.from ? previewPrice(keptDate, keptTime) : null;
  const free = priced && keptDate ? freeSlotsText(availability, keptDate) : null;
  const previewId = visitPreviewId(date.id);
  const location = useLocation();

  const dateInput = useRef<HTMLInputElement>(null);
  const timeSelect = useRef<HTMLSelectElement>(null);
  // Before the calendar replaces these inputs, keep what the visitor may have chosen while the page loaded.
  useLayoutEffect(() => {
    typed.current = { date: dateInput.current?.value, time: timeSelect.current?.value };
  });

  return (
    <div className="form-span-2 service-visit-native">
      <div className="service-visit-fields">
        <TextInput
          key={date.key}
          ref={dateInput}
          id={date.id}
          name={date.name}
          label={residentialLabels.serviceDate}
          type="date"
          min={availability.from}
          max={availability.until}
          defaultValue={keptDate}
          withAsterisk
          aria-required
          aria-describedby={previewId}
          error={dateError}
        />
        <NativeSelect
          key={time.key}
          ref={timeSelect}
          id={time.id}
          name={time.name}
          label={residentialLabels.serviceTime}
          data={[{ value: "", label: "Choose a time slot" }, ...options]}
          defaultValue={keptOpen ? keptTime : ""}
          withAsterisk
          aria-required
          aria-describedby={previewId}
          error={time.errors?.[0]}
        />
        <div className="form-span-2 service-preview">
          {/* Refused, the error summary above the form takes this id: the answer opens there. */}
          <div id={priced ? previewId : undefined}>
            {price ? <p className="service-price">{price}</p> : null}
            {free ? <p>{free}</p> : null}
            {!priced ? (
              <p className="form-hint">No price yet: see the problem at the top of the form.</p>
            ) : !price && !free ? (
              <p className="form-hint">Choose a date, then Show price to see its price and free times.</p>
            ) : null}
          </div>
          {/* Back at the price, not at the top of a long page. */}
          <button
            type="submit"
            name={PREVIEW_FIELD}
            value={PREVIEW_VALUE}
            formNoValidate
            formAction={`${location.pathname}${location.search}#${previewId}`}
            className="btn btn-outline"
          >
            Show price
          </button>
        </div>
      </div>
      <VisitShadow date={date} time={time} availability={availability} withTotal={withTotal} />
    </div>
  );
}

/**
 * The calendar's frame as the hydrated form will first draw it (the kept day and window, if any),
 * invisible and inert behind the native inputs: the room the calendar takes, held from the first
 * paint in a browser that runs scripts (visit-room.css); not displayed in one that does not.
 */
function VisitShadow({ date: dateMeta, time: timeMeta, availability, withTotal }: Omit<VisitProps, "typed">) {
  const first = text(dateMeta.initialValue);
  const date = formatServiceDay(first) !== null ? first : null;
  const kept = text(timeMeta.initialValue);
  const time = isServiceTime(kept) ? kept : null;
  const chosen = date && time && slotStatus(availability, date, time).open ? time : null;
  return (
    <VisitFrame
      shadow
      dateMeta={dateMeta}
      timeMeta={timeMeta}
      availability={availability}
      date={date}
      chosen={chosen}
      cents={date && chosen ? slotPrice(date, chosen) : null}
      withTotal={withTotal ?? true}
      calendar={null}
    />
  );
}

/** The visit with JavaScript: the calendar with each day's price, the day's slots, the live total. */
function VisitPicker({
  date: dateMeta,
  time: timeMeta,
  availability,
  typed,
  onPick,
  withTotal = true,
  priced = true,
  booked,
}: VisitProps) {
  const [date, setDate] = useState<string | null>(() => {
    const first = typed.current.date || text(dateMeta.initialValue);
    return formatServiceDay(first) !== null ? first : null;
  });
  const [time, setTime] = useState<ServiceTime | null>(() => {
    const first = typed.current.time || text(timeMeta.initialValue);
    return isServiceTime(first) ? first : null;
  });

  // The date is a hidden input, which fires no events: tell Conform it changed, so an error shown under it is checked again.
  const dateInput = useRef<HTMLInputElement>(null);
  const picked = useRef(false);
  useEffect(() => {
    if (picked.current) dateInput.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [date]);

  // A slot that filled up meanwhile (a refused booking brings the fresh availability) is no longer chosen.
  // The booked window is no new choice.
  const isBooked = (day: string, slot: string) => booked?.date === day && booked.time === slot;
  const chosen = date && time && slotStatus(availability, date, time).open && !isBooked(date, time) ? time : null;
  const cents = priced && date && chosen ? slotPrice(date, chosen) : null;
  useEffect(() => {
    onPick?.(date, chosen);
  }, [onPick, date, chosen]);

  const pick = useCallback(
    (next: string | null) => {
      // The form's checks ask Detroit's clock (a past day, today's begun windows, a card's expiry), and the
      // page's first Intl formatter starts the browser's ICU, one task of 40–70 ms at 4× CPU: start it
      // while the visitor reads the day's windows, not inside the next check's blur or submit (docs/decisions/066).
      if (!picked.current) (window.requestIdleCallback ?? setTimeout)(() => todayInDetroit());
      picked.current = true;
      setDate(next);
      setTime((kept) => (next === null || (kept !== null && !slotStatus(availability, next, kept).open) ? null : kept));
    },
    [availability],
  );

  // The calendar is drawn again only when the day or the snapshot changes, not when a window is chosen: its
  // 42 day buttons are most of a click's work at 4× CPU (docs/decisions/066).
  const calendar = useMemo(() => {
    const full = (day: string) => openSlots(availability, day).length === 0;
    const dayLabels = {
      out: () => ({ cell: "", aria: "not bookable online" }),
      started: () => ({ cell: "Started", aria: "no times left to book today" }),
      full: () => ({ cell: "Full", aria: "fully booked" }),
      // The lowest and highest price of the day's windows still open.
      // A ZIP outside the area: no price for a visit that cannot be booked online.
      open: (day: string) =>
        priced
          ? {
              cell: <DayPrice range={dayPriceRange(day, openSlots(availability, day))} />,
              aria: dayPriceLabel(day, openSlots(availability, day)),
            }
          : { cell: "", aria: "no online booking for the ZIP entered" },
    };
    const dayLabel = (day: string) => {
      const label = dayLabels[dayState(availability, day)](day);
      // The booked day says so, in its cell and its name (its other windows stay open to choose).
      return day === booked?.date ? { cell: YOUR_VISIT, aria: `${YOUR_VISIT.toLowerCase()}, ${label.aria}` } : label;
    };
    return (
      // Six week rows in every month: the calendar's height never changes (dates.css).
      <DatesProvider settings={{ consistentWeeks: true }}>
        <DatePicker
          value={date}
          onChange={pick}
          defaultDate={date ?? booked?.date ?? availability.from}
          minDate={availability.from}
          maxDate={availability.until}
          excludeDate={full}
          maxLevel="month"
          firstDayOfWeek={0}
          weekendDays={[]}
          hideOutsideDates
          fullWidth
          size="md"
          classNames={{ day: "service-day", weekday: "service-weekday" }}
          getDayProps={(day) => (day === booked?.date ? { "data-booked": true } : {})}
          ariaLabels={{ previousMonth: "Previous month", nextMonth: "Next month" }}
          getDayAriaLabel={(day) => `${formatServiceDay(day)}, ${dayLabel(day).aria}`}
          renderDay={(day) => (
            <>
              <span className="service-day-number">{Number(day.slice(8))}</span>
              <span className="service-day-price">{dayLabel(day).cell}</span>
            </>
          )}
        />
      </DatesProvider>
    );
  }, [availability, date, pick, booked, priced]);

  return (
    <VisitFrame
      dateMeta={dateMeta}
      timeMeta={timeMeta}
      availability={availability}
      date={date}
      chosen={chosen}
      cents={cents}
      withTotal={withTotal}
      priced={priced}
      onTime={setTime}
      calendar={calendar}
      booked={booked}
    >
      <input ref={dateInput} type="hidden" name={dateMeta.name} value={date ?? ""} />
    </VisitFrame>
  );
}

/**
 * A day's price under its number: one price, or the range "$129.95–$159.95" (calendar.ts's
 * dayPrice), which wraps after the dash where the cell is narrow, or before it on a phone, whose
 * second line drops its "$" to fit ("–159.95", dates.css: the dash and the second price are held
 * together there, or WebKit breaks after the dash); the text stays the whole range.
 */
function DayPrice({ range }: { range: { low: number; high: number } | null }) {
  if (range === null) return null;
  if (range.low === range.high) return <>{formatUsd(range.low)}</>;
  return (
    <>
      {formatUsd(range.low)}
      <wbr />
      <span className="service-day-high">
        –<span className="service-day-currency">$</span>
        {formatUsd(range.high).slice(1)}
      </span>
    </>
  );
}

/**
 * The hydrated form's layout around its calendar: the date's label and hint, the calendar, the
 * day's windows as radio buttons with their price and places, the total. The picker draws it live;
 * its `shadow` (no ids, no names, nothing focusable) holds the same room before hydration.
 */
function VisitFrame({
  dateMeta,
  timeMeta,
  availability,
  date,
  chosen,
  cents,
  withTotal,
  priced = true,
  calendar,
  onTime,
  shadow = false,
  booked,
  children,
}: {
  dateMeta: Meta;
  timeMeta: Meta;
  availability: Availability;
  date: string | null;
  chosen: ServiceTime | null;
  cents: number | null;
  withTotal: boolean;
  /** False for a ZIP outside the area: no window's price, and the total says why. */
  priced?: boolean;
  calendar: ReactNode;
  onTime?: (time: ServiceTime) => void;
  shadow?: boolean;
  booked?: BookedVisit;
  children?: ReactNode;
}) {
  const dateError = dateMeta.errors?.[0];
  const timeError = timeMeta.errors?.[0];
  const id = (suffix: string) => (shadow ? undefined : `${dateMeta.id}-${suffix}`);
  const labelId = id("label");
  const hintId = id("hint");
  const dateErrorId = `${dateMeta.id}-error`;
  const timeErrorId = `${timeMeta.id}-error`;
  // The shadow's words are drawn by CSS, not written: the page's text (and a search of it) has them once.
  const say = (words: string) => (shadow ? <ShadowText words={words} /> : words);

  return (
    <div
      className={`form-span-2 service-visit${shadow ? " service-visit-shadow" : ""}`}
      aria-hidden={shadow || undefined}
      inert={shadow || undefined}
    >
      <div className="service-visit-date">
        <span id={labelId} className="form-label">
          {say(residentialLabels.serviceDate)}
          <RequiredMark />
        </span>
        <p id={hintId} className="form-hint">
          {say(CALENDAR_HINT)}
        </p>
        {/* The field's id is the calendar's: the error summary's link focuses it (the date itself is a hidden input). */}
        <div
          id={shadow ? undefined : dateMeta.id}
          tabIndex={shadow ? undefined : -1}
          role={shadow ? undefined : "group"}
          aria-labelledby={labelId}
          aria-describedby={shadow ? undefined : dateError ? `${hintId} ${dateErrorId}` : hintId}
          className="service-calendar"
        >
          {calendar}
        </div>
        {children}
        {shadow ? (
          dateError ? (
            <p className="form-field-error">{say(dateError)}</p>
          ) : null
        ) : (
          <FieldError id={dateErrorId} error={dateError} />
        )}
      </div>

      {/* The windows' group carries the field's id: the error summary's link lands here before a day is chosen. */}
      <fieldset
        id={shadow ? undefined : timeMeta.id}
        tabIndex={shadow ? undefined : -1}
        role={shadow ? undefined : "radiogroup"}
        className="form-fieldset service-slots"
        aria-describedby={timeError && !shadow ? timeErrorId : undefined}
        aria-invalid={timeError && !shadow ? true : undefined}
        aria-required={shadow ? undefined : true}
      >
        <legend className="form-label">
          {say(residentialLabels.serviceTime)}
          <RequiredMark />
        </legend>
        <p className="form-hint">
          {say((date && formatServiceDay(date)) || "Choose a day on the calendar to see its free times.")}
        </p>
        {date ? (
          <div className="form-choices">
            {SERVICE_TIMES.map((slot) => {
              const status = slotStatus(availability, date, slot);
              const price = slotPrice(date, slot);
              const yours = booked?.date === date && booked.time === slot;
              return (
                <Radio
                  key={slot}
                  id={shadow ? undefined : `${timeMeta.id}-${SERVICE_TIMES.indexOf(slot)}`}
                  name={shadow ? undefined : timeMeta.name}
                  value={slot}
                  label={say(yours ? `${slot} · ${YOUR_VISIT}` : slot)}
                  description={say(
                    yours
                      ? "Booked now: choose another window to move it"
                      : price !== null && priced
                        ? `${formatUsd(price)} · ${status.text}`
                        : status.text,
                  )}
                  disabled={!status.open || yours}
                  className={yours ? "service-slot-booked" : undefined}
                  checked={chosen === slot}
                  // The shadow's radios are inert; `readOnly` is no attribute of a radio button.
                  onChange={() => onTime?.(slot)}
                />
              );
            })}
          </div>
        ) : null}
        {shadow ? (
          timeError ? (
            <p className="form-field-error">{say(timeError)}</p>
          ) : null
        ) : (
          <FieldError id={timeErrorId} error={timeError} />
        )}
      </fieldset>

      {withTotal ? (
        <p className="service-total" aria-live={shadow ? undefined : "polite"}>
          {say(
            !priced
              ? NO_PRICE_OUTSIDE
              : cents !== null
                ? `Total: ${formatUsd(cents)}`
                : "Choose a day and a time to see the total.",
          )}
        </p>
      ) : null}
      {shadow ? null : <input type="hidden" name="total" value={cents !== null ? centsToDecimal(cents) : ""} />}
    </div>
  );
}

/** The total's line while the ZIP typed is outside the area (with JavaScript). */
export const NO_PRICE_OUTSIDE = "No price: we don't book online visits to the ZIP above (see the note under it).";

const CALENDAR_HINT =
  "Under each day, the price of a visit: from its cheapest to its dearest time. Greyed-out days are full or cannot be booked online.";

/** Words the shadow shows (invisibly) through CSS (visit-room.css): laid out as text, yet not in the page's text. */
function ShadowText({ words }: { words: string }) {
  return <span className="service-visit-shadow-text" data-text={words} />;
}
