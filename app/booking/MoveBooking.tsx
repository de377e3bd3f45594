import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { PolicyNote } from "~/forms/ui/PolicyNote";
import { useCallback, useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { CardFields } from "~/forms/ui/card-fields";
import { ErrorSummary, summaryEntries } from "~/forms/ui/ErrorSummary";
import type { Availability } from "~/booking/availability";
import { formatServiceDay } from "~/booking/form/calendar";
import { VisitFields, YOUR_VISIT, type BookedVisit, type Typed } from "~/booking/form/VisitFields";
import type { ServiceTime } from "~/booking/service-price";
import { MantineScope } from "~/shell/MantineScope";
import { priceChange } from "./price-change";
import { changeWords, keptCents, type MoneySums } from "~/payments/words";

/**
 * Moving a booked visit (/booking/{token}?move): the booking form's calendar (native inputs and
 * "Show price" without JavaScript), what the new time costs against what was paid, the card
 * only when it costs more, and "Move my visit". A real form either way; the server prices and
 * decides (./reschedule.server.ts).
 */
export type MoveFormAnswer = {
  ok: boolean;
  message: string | null;
  notice: string | null;
  lastResult: SubmissionResult<string[]> | null;
  change: { dearer: boolean; text: string } | null;
};

type MoveFields = {
  serviceDate: string;
  serviceTime: string;
  cardHolder: string;
  cardNumber: string;
  cardExpMonth: string;
  cardExpYear: string;
  cardCVC: string;
};

export function MoveBooking({
  formId,
  money,
  availability,
  changeKey,
  currentVisit,
  visit,
  answer,
}: {
  formId: string;
  /** What the booking has been paid, from the ledger: the new window's price is compared with it. */
  money: MoneySums;
  availability: Availability;
  changeKey: string;
  /** The visit this form is rendered for: a booking moved meanwhile refuses it (never priced from a stale page). */
  currentVisit: string;
  /** The booked visit: the calendar opens on its month and marks it; the page says it above the fields. */
  visit: BookedVisit;
  answer: MoveFormAnswer | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "move";
  const [form, fields] = useForm<MoveFields>({ id: formId, lastResult: answer?.lastResult ?? null });
  const typed = useRef<Typed>({});
  // With JavaScript: what the picked day and window cost, as the visitor picks them.
  const [picked, setPicked] = useState<{ date: string | null; time: ServiceTime | null }>({ date: null, time: null });
  const onPick = useCallback((date: string | null, time: ServiceTime | null) => setPicked({ date, time }), []);
  const live =
    picked.date && picked.time
      ? priceChange(keptCents(money), { serviceDate: picked.date, serviceTime: picked.time })
      : null;
  const change = live?.ok
    ? { dearer: live.direction === "dearer", text: changeWords(money, live.newCents) }
    : answer?.change;
  const statusId = `${formId}-status`;
  // A refusal: the summary above the form (focused with JavaScript; without, the post's fragment lands on it).
  const summary = answer && !answer.ok && answer.message ? summaryEntries(formId, form.allErrors) : null;
  const [summaryFocus, setSummaryFocus] = useState<number | null>(null);
  useEffect(() => {
    if (answer && !answer.ok) setSummaryFocus((n) => (n ?? 0) + 1);
  }, [answer]);

  return (
    <MantineScope>
      {summary && answer?.message ? (
        <ErrorSummary
          id={statusId}
          formId={formId}
          message={answer.message}
          notice={answer.notice ?? undefined}
          entries={summary}
          focusKey={summaryFocus}
        />
      ) : null}
      <Form
        method="post"
        action={`?move#${statusId}`}
        {...getFormProps(form)}
        aria-labelledby={`${formId}-title`}
        className="lead-form booking-move"
      >
        <h2 id={`${formId}-title`} className="booking-subhead" tabIndex={-1}>
          Move your visit
        </h2>
        <p className="form-hint">
          Choose another day and window. A time that costs more is charged the difference; one that costs less is
          refunded it to the card that paid.
        </p>
        <input type="hidden" name="submission_key" value={changeKey} />
        <input type="hidden" name="currentVisit" value={currentVisit} />
        <div className="form-grid">
          <p className="form-span-2 booking-move-current">
            <strong>{YOUR_VISIT}:</strong> {formatServiceDay(visit.date) ?? visit.date}, {visit.time}
          </p>
          <VisitFields
            date={fields.serviceDate}
            time={fields.serviceTime}
            availability={availability}
            typed={typed}
            onPick={onPick}
            withTotal={false}
            booked={visit}
          />
          <p className="form-span-2 service-total" aria-live="polite">
            {change ? change.text : "Choose a day and a window to see what the change costs."}
          </p>
          {change?.dearer ? (
            <>
              <div className="form-span-2 form-subhead">
                <h3>Pay the difference</h3>
                <p className="form-hint">We never store your card number.</p>
              </div>
              <CardFields formId={formId} fields={fields} />
            </>
          ) : null}
        </div>
        <div id={summary ? undefined : statusId} className="form-status" aria-live={summary ? "off" : "polite"}>
          {answer?.message ? (
            <p
              role={answer.ok ? "status" : summary ? undefined : "alert"}
              className={`form-message form-message--${answer.ok ? "success" : "error"}`}
            >
              {answer.message}
            </p>
          ) : null}
          {answer?.notice ? <p className="form-notice">{answer.notice}</p> : null}
        </div>
        <PolicyNote action="moving your visit" />
        <div className="booking-actions">
          <button type="submit" name="intent" value="move" className="btn btn-primary" disabled={busy}>
            {busy ? "Moving..." : "Move my visit"}
          </button>
          <a href="?" className="btn btn-outline">
            Keep my visit as it is
          </a>
        </div>
      </Form>
    </MantineScope>
  );
}
