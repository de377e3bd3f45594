import { Fragment, type ReactNode } from "react";
import { company } from "~/lib/company";
import { cancelWords } from "~/payments/words";
import { visitDay } from "./visit-day";
import type { ManagedBooking } from "./manage.server";
import { BOOKING_BUSY_TEXT, VISIT_INCLUDES, WHAT_HAPPENS_NEXT } from "./policy";

const STATUS_TEXT: Record<ManagedBooking["status"], string> = {
  booked: "Booked",
  rescheduled: "Booked (moved)",
  cancelled: "Cancelled",
  "cancellation pending": "Cancelled",
};

/** The residential booking form, where a cancelled visit's page sends its visitor to book again. */
const BOOK_AGAIN_PATH = "/request-service?type=residential";

const when = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "America/Detroit",
});

/** The manage page of a booking (/booking/{token}): what was booked and paid, the policy, the history. */
export function ManageBooking({
  booking,
  policy,
  changes = null,
  receipt,
  confirmCancel,
  answer,
  moving,
  children,
}: {
  booking: ManagedBooking;
  policy: string;
  /** Until when this visit can be moved or cancelled online, or that it no longer can. */
  changes?: string | null;
  /** Right after paying: the success (or pending) text and the receipt line. */
  receipt: { pending: boolean; title: string; line: string } | null;
  /** The no-JS confirmation of a cancellation is showing (?cancel). */
  confirmCancel: boolean;
  /** The answer to a cancellation just posted. */
  answer: { ok: boolean; message: string } | null;
  /** The move form is showing (?move): it takes the place of the actions. */
  moving: boolean;
  /** The move form, when showing. */
  children?: ReactNode;
}) {
  const cancelled = booking.status === "cancelled" || booking.status === "cancellation pending";
  return (
    <div className="form-card booking-card" id="booking">
      {receipt ? <JustPaid receipt={receipt} /> : null}
      {answer ? (
        <p
          role={answer.ok ? "status" : "alert"}
          className={`form-message form-message--${answer.ok ? "success" : "error"}`}
        >
          {answer.message}
        </p>
      ) : null}
      {confirmCancel ? <ConfirmCancel booking={booking} /> : null}
      <BookingFacts booking={booking} cancelled={cancelled} />
      {cancelled ? null : <WhatNext changes={changes} policy={policy} />}
      {children}
      {booking.paymentChecking && !cancelled ? <p className="form-hint">{BOOKING_BUSY_TEXT}</p> : null}
      {booking.canChange && !confirmCancel && !moving ? (
        <p className="booking-actions">
          <a href="?move#move-booking-title" className="btn btn-primary">
            Move my visit
          </a>
          <a href="?cancel#cancel-confirm-title" className="btn btn-outline">
            Cancel booking
          </a>
        </p>
      ) : null}
      {cancelled ? (
        <p className="booking-actions">
          <a href={BOOK_AGAIN_PATH} className="btn btn-primary">
            Book another visit
          </a>
        </p>
      ) : null}
      <p>
        <a href={company.phone.href}>Call {company.phone.display}</a>
      </p>
      <BookingRecords booking={booking} />
    </div>
  );
}

/** Right after paying: the success (or pending) text, the receipt line, and where the receipt went. */
function JustPaid({ receipt }: { receipt: { pending: boolean; title: string; line: string } }) {
  return (
    <>
      <p role="status" className={`form-message form-message--${receipt.pending ? "error" : "success"}`}>
        {receipt.title}
      </p>
      {receipt.line ? <p className="receipt-line">{receipt.line}</p> : null}
      <p className="form-hint">
        We have e-mailed you this receipt with a calendar invitation for the visit, and a link back to this page.
      </p>
    </>
  );
}

/** The no-JS confirmation of a cancellation (?cancel): what goes back where, and the two choices. */
function ConfirmCancel({ booking }: { booking: ManagedBooking }) {
  return (
    <form method="post" className="booking-confirm" aria-labelledby="cancel-confirm-title">
      <h2 id="cancel-confirm-title" className="booking-subhead" tabIndex={-1}>
        Cancel this visit?
      </h2>
      <p>{booking.paid ? cancelWords(booking.money) : ""} The place is given to someone else.</p>
      <input type="hidden" name="intent" value="cancel" />
      <div className="booking-actions">
        <button type="submit" className="btn btn-primary">
          Yes, cancel my visit
        </button>
        <a href="?" className="btn btn-outline">
          Keep my booking
        </a>
      </div>
    </form>
  );
}

/** The booking at a glance: reference, status, visit, address, price, payment, and the money's lines. */
function BookingFacts({ booking, cancelled }: { booking: ManagedBooking; cancelled: boolean }) {
  return (
    <>
      <p className="booking-reference">
        Booking reference: <strong>{booking.reference}</strong>
      </p>
      <dl className="booking-facts">
        <dt>Status</dt>
        <dd>{STATUS_TEXT[booking.status]}</dd>
        <dt>Visit</dt>
        <dd>
          {visitDay(booking.serviceDate)}, {booking.serviceTime}
        </dd>
        <dt>Address</dt>
        <dd>
          {booking.address.map((line) => (
            <span key={line} className="booking-address-line">
              {line}
            </span>
          ))}
        </dd>
        {cancelled ? null : (
          <>
            <dt>Price</dt>
            <dd>{booking.amount}</dd>
          </>
        )}
        <dt>Payment</dt>
        <dd>{booking.paidLine}</dd>
      </dl>
      {booking.payments.length > 0 ? (
        <>
          <h2 className="booking-subhead">Your money</h2>
          <ol className="booking-history booking-money">
            {booking.payments.map((line, i) => (
              <li key={`${line.at}-${i}`}>
                <time dateTime={line.at}>{when.format(new Date(line.at))}</time>: {line.text}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}

/** A booking still on: what happens next, what the visit includes, until when and how it can change. */
function WhatNext({ changes, policy }: { changes: string | null; policy: string }) {
  return (
    <>
      <h2 className="booking-subhead">What happens next</h2>
      <p>{WHAT_HAPPENS_NEXT}</p>
      <h2 className="booking-subhead">What the visit includes</h2>
      <ul className="booking-list">
        {VISIT_INCLUDES.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <h2 className="booking-subhead">Changes and refunds</h2>
      {changes ? <p className="booking-changes">{changes}</p> : null}
      <p>{policy}</p>
    </>
  );
}

/** What the visitor sent, and the booking's history. */
function BookingRecords({ booking }: { booking: ManagedBooking }) {
  return (
    <>
      {booking.details.length > 0 ? (
        <>
          <h2 className="booking-subhead">Your details</h2>
          <dl className="booking-facts">
            {booking.details.map((row) => (
              <Fragment key={row.label}>
                <dt>{row.label}</dt>
                <dd>{row.value}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      ) : null}
      {booking.history.length > 0 ? (
        <>
          <h2 className="booking-subhead">History</h2>
          <ol className="booking-history">
            {booking.history.map((event, i) => (
              <li key={`${event.at}-${i}`}>
                <time dateTime={event.at}>{when.format(new Date(event.at))}</time>: {event.note ?? event.kind}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}
