import { NativeSelect, Radio, TextInput } from "@mantine/core";
import { DatePicker } from "@mantine/dates";
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { company } from "~/content/company";
import { centsToDecimal, formatUsd } from "~/payments/money";
import {
  EVENING_SLOT,
  isServiceTime,
  SERVICE_PRICE_CENTS,
  servicePrice,
  type ServiceTime,
} from "~/payments/service-price";
import { CONTACT_METHODS, DEFAULT_COUNTRY, DEFAULT_STATE, SERVICE_TIMES } from "../options";
import { CardFields } from "../ui/card-fields";
import { FieldError, PhotoField, RequiredMark, SelectField, TextAreaField } from "../ui/fields";
import { useLocation } from "react-router";
import { useHydrated } from "~/shell/hydrated";
import { LeadForm, type FieldMetadata, type FormBootstrapData } from "../ui/LeadForm";
import { dayState, openSlots, type Availability } from "./availability";
import { dayPrice, formatServiceDay, freeSlotsText, slotStatus } from "./calendar";
import { PREVIEW_FIELD, PREVIEW_VALUE, residentialServiceIdentity } from "./identity";
import { residentialLabels, residentialServiceSchema } from "./schema";
import { ServiceContactFields } from "../service/ContactFields";
import { ServiceAreaField } from "./ServiceAreaField";
// The calendar's styles travel with this form's chunk: no other page needs them,
// and the calendar only appears once JavaScript has loaded it.
import "./dates.css";

/**
 * The residential service booking, paid by card (SPEC §3 Service request,
 * §5 Residential service extras; issue 16 items 2–3): the commercial form's
 * fields, the visit's date and slot against real availability, and the card.
 *
 * The visit is chosen two ways. Without JavaScript (the server's render, and
 * the first client render so hydration matches): a native date input, a slot
 * select whose full slots are disabled for the date the server kept, and a
 * "Show price" button that posts the form to be re-rendered with that date's
 * price and free slots. Once hydrated: a calendar showing each day's price
 * (full and unbookable days greyed out), the chosen day's slots as radio
 * buttons with their price and places left, and the live total. Either way
 * the names posted are SPEC §7's (serviceDate, serviceTime, total); the price
 * charged is the server's (~/payments/service-price.ts, the one rule shown here).
 */
export function ResidentialServiceForm({
  bootstrap,
  availability,
}: {
  bootstrap: FormBootstrapData;
  availability: Availability;
}) {
  const { id, uploads } = residentialServiceIdentity;
  const hydrated = useHydrated();
  // What the visitor typed in the native inputs before hydration replaced them.
  const typed = useRef<Typed>({});
  return (
    <>
      <p className="form-hint">
        Pick a day and a time window; the price is set by the day and the time (weekdays from{" "}
        {formatUsd(SERVICE_PRICE_CENTS.standard)}). You pay by card now and receive a receipt and a calendar invitation
        by e-mail. Garage door emergency after hours? Call{" "}
        <a href={company.emergencyPhone.href}>{company.emergencyPhone.display}</a>, day or night.
      </p>
      <LeadForm
        id={id}
        title="Residential service booking form"
        schema={residentialServiceSchema}
        bootstrap={bootstrap}
        multipart
        files={(errors) => <PhotoField formId={id} rule={uploads} errors={errors[uploads.field]} />}
        defaultValue={{ state: DEFAULT_STATE, country: DEFAULT_COUNTRY }}
        submitLabel="Book and Pay"
        busyLabel="Processing..."
      >
        {(fields) => (
          <div className="form-grid">
            <ServiceContactFields
              fields={fields}
              zip={<ServiceAreaField meta={fields.zip} label={residentialLabels.zip} />}
            />
            {hydrated ? (
              // A new key when Conform resets the form (after a booking): the picker starts empty again.
              <VisitPicker
                key={`${fields.serviceDate.key}-${fields.serviceTime.key}`}
                date={fields.serviceDate}
                time={fields.serviceTime}
                availability={availability}
                typed={typed}
              />
            ) : (
              <VisitNative
                date={fields.serviceDate}
                time={fields.serviceTime}
                availability={availability}
                typed={typed}
              />
            )}
            <SelectField
              meta={fields.contactMethod}
              label={residentialLabels.contactMethod}
              required
              options={CONTACT_METHODS}
              className="form-span-2"
            />
            <TextAreaField
              meta={fields.description}
              label={residentialLabels.description}
              rows={4}
              className="form-span-2"
            />
            <div className="form-span-2 form-subhead">
              <h3>Payment</h3>
              <p className="form-hint">
                Your card is charged the visit&apos;s price when you book. We never store your card number.
              </p>
            </div>
            <CardFields formId={id} fields={fields} />
          </div>
        )}
      </LeadForm>
    </>
  );
}

type Meta = FieldMetadata<unknown>;
type Typed = { date?: string; time?: string };
type VisitProps = { date: Meta; time: Meta; availability: Availability; typed: RefObject<Typed> };

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
    const price = servicePrice({ serviceDate: date, serviceTime: time });
    return price.ok ? `Price: ${formatUsd(price.cents)}` : null;
  }
  const day = servicePrice({ serviceDate: date, serviceTime: SERVICE_TIMES[0] });
  const evening = servicePrice({ serviceDate: date, serviceTime: EVENING_SLOT });
  if (!day.ok || !evening.ok) return null;
  return day.cents === evening.cents
    ? `Price: ${formatUsd(day.cents)}`
    : `Price: ${formatUsd(day.cents)} (${formatUsd(evening.cents)} for the evening)`;
}

/** The visit without JavaScript: native date input, slot select, and "Show price". */
function VisitNative({ date, time, availability, typed }: VisitProps) {
  const keptDate = text(date.initialValue);
  const keptTime = text(time.initialValue);
  const checked = bookable(availability, keptDate);
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
  const price = keptDate && keptDate >= availability.from ? previewPrice(keptDate, keptTime) : null;
  const free = keptDate ? freeSlotsText(availability, keptDate) : null;
  const previewId = `${date.id}-preview`;
  const location = useLocation();

  const dateInput = useRef<HTMLInputElement>(null);
  const timeSelect = useRef<HTMLSelectElement>(null);
  // Before the calendar replaces these inputs, keep what the visitor may have chosen while the page loaded.
  useLayoutEffect(() => {
    typed.current = { date: dateInput.current?.value, time: timeSelect.current?.value };
  });

  return (
    <>
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
        error={date.errors?.[0]}
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
        <div id={previewId}>
          {price ? <p className="service-price">{price}</p> : null}
          {free ? <p>{free}</p> : null}
          {!price && !free ? (
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
    </>
  );
}

/** The visit with JavaScript: the calendar with each day's price, the day's slots, the live total. */
function VisitPicker({ date: dateMeta, time: timeMeta, availability, typed }: VisitProps) {
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
  const chosen = date && time && slotStatus(availability, date, time).open ? time : null;
  const total = date && chosen ? servicePrice({ serviceDate: date, serviceTime: chosen }) : null;
  const cents = total?.ok ? total.cents : null;

  function pick(next: string | null) {
    picked.current = true;
    setDate(next);
    if (next === null || (time !== null && !slotStatus(availability, next, time).open)) setTime(null);
  }

  const dateError = dateMeta.errors?.[0];
  const timeError = timeMeta.errors?.[0];
  const labelId = `${dateMeta.id}-label`;
  const hintId = `${dateMeta.id}-hint`;
  const dateErrorId = `${dateMeta.id}-error`;
  const timeErrorId = `${timeMeta.id}-error`;
  const full = (day: string) => openSlots(availability, day).length === 0;
  const dayLabels = {
    out: () => ({ cell: "", aria: "not bookable online" }),
    started: () => ({ cell: "Started", aria: "no times left to book today" }),
    full: () => ({ cell: "Full", aria: "fully booked" }),
    open: (day: string) => ({ cell: dayPrice(day), aria: dayPrice(day) }),
  };
  const dayLabel = (day: string) => dayLabels[dayState(availability, day)](day);

  return (
    <div className="form-span-2 service-visit">
      <div className="service-visit-date">
        <span id={labelId} className="form-label">
          {residentialLabels.serviceDate}
          <RequiredMark />
        </span>
        <p id={hintId} className="form-hint">
          The price of a visit is shown under each day. Greyed-out days are full or cannot be booked online.
        </p>
        <div
          role="group"
          aria-labelledby={labelId}
          aria-describedby={dateError ? `${hintId} ${dateErrorId}` : hintId}
          className="service-calendar"
        >
          <DatePicker
            value={date}
            onChange={pick}
            defaultDate={date ?? availability.from}
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
            ariaLabels={{ previousMonth: "Previous month", nextMonth: "Next month" }}
            getDayAriaLabel={(day) => `${formatServiceDay(day)}, ${dayLabel(day).aria}`}
            renderDay={(day) => (
              <>
                <span className="service-day-number">{Number(day.slice(8))}</span>
                <span className="service-day-price">{dayLabel(day).cell}</span>
              </>
            )}
          />
        </div>
        <input ref={dateInput} type="hidden" id={dateMeta.id} name={dateMeta.name} value={date ?? ""} />
        <FieldError id={dateErrorId} error={dateError} />
      </div>

      <fieldset
        role="radiogroup"
        className="form-fieldset service-slots"
        aria-describedby={timeError ? timeErrorId : undefined}
        aria-invalid={timeError ? true : undefined}
        aria-required
      >
        <legend className="form-label">
          {residentialLabels.serviceTime}
          <RequiredMark />
        </legend>
        <p className="form-hint">
          {date ? formatServiceDay(date) : "Choose a day on the calendar to see its free times."}
        </p>
        {date ? (
          <div className="form-choices">
            {SERVICE_TIMES.map((slot) => {
              const status = slotStatus(availability, date, slot);
              const price = servicePrice({ serviceDate: date, serviceTime: slot });
              return (
                <Radio
                  key={slot}
                  id={`${timeMeta.id}-${SERVICE_TIMES.indexOf(slot)}`}
                  name={timeMeta.name}
                  value={slot}
                  label={slot}
                  description={price.ok ? `${formatUsd(price.cents)} · ${status.text}` : status.text}
                  disabled={!status.open}
                  checked={chosen === slot}
                  onChange={() => setTime(slot)}
                />
              );
            })}
          </div>
        ) : null}
        <FieldError id={timeErrorId} error={timeError} />
      </fieldset>

      <p className="service-total" aria-live="polite">
        {cents !== null ? `Total: ${formatUsd(cents)}` : "Choose a day and a time to see the total."}
      </p>
      <input type="hidden" name="total" value={cents !== null ? centsToDecimal(cents) : ""} />
    </div>
  );
}
