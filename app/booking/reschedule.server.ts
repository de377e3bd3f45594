import { setTimeout as sleep } from "node:timers/promises";
import { and, desc, eq, gt, like, sql } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { bookingEvents, payments, serviceRequests } from "@db/schema";
import { company } from "~/content/company";
import { FormFailure, PAYMENT_DECLINED_MESSAGE, withNextStep } from "~/forms/pipeline";
import { confirmPlace, holdPlace, releasePlace } from "~/forms/residential/availability.server";
import { claimRender, claimState, endClaim, recordSubmission, storedSubmission } from "~/forms/submission-keys.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { mailRescheduled } from "~/mail/booking-mail.server";
import type { CardInput, PaymentGateway } from "~/payments/gateway";
import { formatUsd } from "~/payments/money";
import {
  chargeOnce,
  linkPayment,
  refundPart,
  refundPayment,
  voidPayment,
  type PaymentOutcome,
} from "~/payments/payments.server";
import { isServiceTime, type ServiceTime } from "~/payments/service-price";
import { canChangeOnline } from "./cutoff";
import { bookingMailFacts, moveMessage, moveNote, visitText, type BookingRow } from "./facts.server";
import { priceChange } from "./price-change";
import { isManageToken, manageTokenHash, managePath } from "./reference.server";
import { moveReminder } from "./reminders.server";

/**
 * Moving a paid visit to another window from its page (issue 29 item 5, DECISIONS 31): until the
 * cut-off, to any open window of the same calendar (the booking form's availability rules and
 * horizon). The server prices the new time: the same, the booking moves; dearer, the difference
 * is charged to a card entered again (none is stored); cheaper, the difference is refunded to the
 * card that paid.
 *
 * In order: one change of a booking at a time (a claim that a double click's twin waits on); a
 * place held in the new window under its lock (the last place goes to one visitor, as at
 * booking); the money moved with no transaction open; then one transaction takes the held place,
 * frees the old one (the row moves), records the change with its amounts, writes both mails with
 * the updated invitation and moves the reminder. A move that fails after a charge voids it.
 */
export type RescheduleRequest = {
  serviceDate: string;
  serviceTime: string;
  /** The change form's render key: a double click charges once. */
  changeKey: string;
  /** Only for a dearer window. */
  card?: CardInput | null;
  clientIp?: string | null;
};

export type RescheduleOutcome = {
  ok: boolean;
  status: number;
  message: string;
  /** The field a refusal belongs beside. */
  field?: "serviceDate" | "serviceTime" | "card";
};

export const RESCHEDULE_MESSAGES = {
  notFound: "This booking could not be found.",
  closed: "This booking can no longer be moved online.",
  tooLate: (hours: number) =>
    `Online changes close ${hours} hours before the visit's window. Please call us at ${company.phone.display} and we will do what we can.`,
  unpaid: `We could not confirm this booking's payment yet, so it cannot be moved online. Please call us at ${company.phone.display}.`,
  same: "That is your visit's time already. Choose another day or window.",
  needsCard: (diff: string) => `This time costs ${diff} more. Enter your card to pay the difference.`,
  busy: "Another change to this booking is under way. Please wait a moment and reload this page.",
  changed: "This booking changed while you were choosing. Please look at it again before moving it.",
  tooManyDeclines: `Too many declined cards for this booking. Please call us at ${company.phone.display} to move your visit.`,
  failed: `Your visit could not be moved, and nothing was charged. Please try again, or call us at ${company.phone.display}.`,
} as const;

/** Card attempts per booking and hour (a booking's link is no card-testing tool). */
const DECLINES_PER_HOUR = 5;

const MOVABLE = new Set(["booked", "rescheduled"]);

export async function rescheduleBooking(
  db: Database,
  token: string | undefined,
  req: RescheduleRequest,
  { now = new Date(), gateway }: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<RescheduleOutcome> {
  if (!isManageToken(token)) return { ok: false, status: 404, message: RESCHEDULE_MESSAGES.notFound };
  const [row] = await db
    .select()
    .from(serviceRequests)
    .where(eq(serviceRequests.manageTokenHash, manageTokenHash(token)))
    .limit(1);
  if (!row || row.kind !== "residential" || row.totalCents === null)
    return { ok: false, status: 404, message: RESCHEDULE_MESSAGES.notFound };
  // This form's move is done already (a double click's twin arriving after it, a refresh of the post): said again.
  const key = `reschedule:${row.id}:${req.changeKey}`;
  if (await storedSubmission(db, key))
    return (await lastMove(db, row.id, req)) ?? { ok: false, status: 409, message: RESCHEDULE_MESSAGES.changed };
  const refusal = checkMovable(row, req, now);
  if (refusal) return refusal;
  const change = priceChange(row.totalCents, req, now);
  if (!change.ok) return { ok: false, status: 400, message: change.message, field: change.field };
  if (change.direction === "dearer" && !req.card)
    return {
      ok: false,
      status: 400,
      message: RESCHEDULE_MESSAGES.needsCard(formatUsd(change.diffCents)),
      field: "card",
    };

  // One change of a booking at a time: a double click's twin (or a second tab) waits for the first.
  const claim = `booking-change:${row.id}`;
  const staleMs = env().PAYMENT_TIMEOUT_MS * 2 + 30_000;
  if (!(await claimRender(db, claim, "booking-change", staleMs))) return awaitChange(db, claim, row.id, req, staleMs);
  try {
    const outcome = await move(db, row, token, req, change, { now, gateway });
    await endClaim(db, claim, outcome.ok ? undefined : { status: outcome.status, message: outcome.message });
    return outcome;
  } catch (error) {
    await endClaim(db, claim, { status: 500, message: RESCHEDULE_MESSAGES.failed }).catch(() => {});
    throw error;
  }
}

function checkMovable(row: BookingRow, req: RescheduleRequest, now: Date): RescheduleOutcome | null {
  const cutoff = env().BOOKING_CHANGE_CUTOFF_HOURS;
  if (!MOVABLE.has(row.bookingStatus ?? "booked"))
    return { ok: false, status: 409, message: RESCHEDULE_MESSAGES.closed };
  if (!canChangeOnline(row.serviceDate, row.serviceTime as ServiceTime, cutoff, now))
    return { ok: false, status: 409, message: RESCHEDULE_MESSAGES.tooLate(cutoff) };
  if (row.paymentStatus !== "paid" || !row.paymentId)
    return { ok: false, status: 409, message: RESCHEDULE_MESSAGES.unpaid };
  if (!isServiceTime(req.serviceTime)) return null; // priced next: "Choose a service time."
  if (req.serviceDate === row.serviceDate && req.serviceTime === row.serviceTime)
    return { ok: false, status: 400, message: RESCHEDULE_MESSAGES.same, field: "serviceTime" };
  return null;
}

type Change = Extract<ReturnType<typeof priceChange>, { ok: true }>;

async function move(
  db: Database,
  row: BookingRow,
  token: string,
  req: RescheduleRequest,
  change: Change,
  { now, gateway }: { now: Date; gateway?: PaymentGateway },
): Promise<RescheduleOutcome> {
  const time = req.serviceTime as ServiceTime;
  const key = `reschedule:${row.id}:${req.changeKey}`; // the hold's, the charge's and the recorded key
  const diff = formatUsd(Math.abs(change.diffCents));
  const fromVisit = visitText(row.serviceDate, row.serviceTime);
  const toVisit = visitText(req.serviceDate, time);

  // 1. A place in the new window, under its lock (full, begun, past the horizon: refused here).
  const held = await holdPlace(db, key, req.serviceDate, time, now);
  if (held) return fromFailure(held);

  // 2. The money, with no transaction open.
  let charge: PaymentOutcome | null = null;
  let refunded: { ok: boolean; paymentId: number | null; message?: string } | null = null;
  if (change.direction === "dearer") {
    if ((await declinesLastHour(db, row.id)) >= DECLINES_PER_HOUR) {
      await releasePlace(db, key);
      return { ok: false, status: 429, message: RESCHEDULE_MESSAGES.tooManyDeclines, field: "card" };
    }
    charge = await chargeOnce(
      db,
      {
        purpose: "service",
        amountCents: change.diffCents,
        idempotencyKey: key,
        card: req.card!,
        description: `Booking ${row.reference ?? row.id} moved to ${req.serviceDate} ${time}: difference`,
        customer: { email: row.email, ip: req.clientIp ?? undefined },
        billing: { address: row.address1, city: row.city, state: row.state, zip: row.zip, country: row.country },
        reference: { table: "service_requests", id: row.id },
      },
      { gateway },
    );
    if (charge.status !== "approved") {
      await releasePlace(db, key);
      // A charge whose answer is unknown is never called paid, nor tried again: the booking stays as it was.
      return {
        ok: false,
        status: charge.status === "pending" ? 202 : 402,
        // A card the issuer declined says what to do next, as every paid form's answer does.
        message:
          charge.status === "declined"
            ? withNextStep(charge.message ?? PAYMENT_DECLINED_MESSAGE)
            : (charge.message ?? PAYMENT_DECLINED_MESSAGE),
        field: "card",
      };
    }
  } else if (change.direction === "cheaper") {
    refunded = await refundDifference(db, row, -change.diffCents, gateway);
  }

  // 3. The move, its record, its mails and its reminder: one transaction.
  const money =
    change.direction === "dearer"
      ? `${diff} was charged to ${cardOf(charge!)} for the difference; the visit now costs ${formatUsd(change.newCents)}.`
      : change.direction === "cheaper"
        ? refunded!.ok
          ? `${diff} is refunded to the card that paid; it shows on your statement within a few business days. The visit now costs ${formatUsd(change.newCents)}.`
          : `The ${diff} difference is to be refunded to the card that paid, but the card processor has not confirmed it yet: our office is checking it and will contact you.`
        : `The new time costs the same (${formatUsd(change.newCents)}): nothing was charged or refunded.`;
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, row.id)).for("update");
      if (
        !current ||
        !MOVABLE.has(current.bookingStatus ?? "booked") ||
        current.serviceDate !== row.serviceDate ||
        current.serviceTime !== row.serviceTime
      )
        throw new FormFailure(RESCHEDULE_MESSAGES.changed, {}, 409);
      await confirmPlace(tx, key, req.serviceDate, time);
      await recordSubmission(tx, key, "booking-change", { submissionTable: "service_requests", submissionId: row.id });
      if (charge) await linkPayment(tx, charge.paymentId, { table: "service_requests", id: row.id });
      const [moved] = await tx
        .update(serviceRequests)
        .set({
          serviceDate: req.serviceDate,
          serviceTime: time,
          totalCents: change.newCents,
          bookingStatus: "rescheduled",
        })
        .where(eq(serviceRequests.id, row.id))
        .returning();
      // Built before this change's history line: the invitation's SEQUENCE counts the updates sent before it.
      const facts = await bookingMailFacts(tx, moved!, `Garage door service visit, ${time}. Moved from ${fromVisit}.`, {
        manageUrl: `${env().SITE_URL}${managePath(token)}`,
      });
      await tx.insert(bookingEvents).values({
        serviceRequestId: row.id,
        kind: "rescheduled",
        fromDate: row.serviceDate,
        fromTime: row.serviceTime,
        toDate: req.serviceDate,
        toTime: time,
        amountCents: change.direction === "same" ? 0 : change.diffCents,
        paymentId: charge?.paymentId ?? refunded?.paymentId ?? null,
        note: moveNote({ date: row.serviceDate, time: row.serviceTime }, { date: req.serviceDate, time }, money),
      });
      if (refunded && !refunded.ok)
        await tx.insert(bookingEvents).values({
          serviceRequestId: row.id,
          kind: "refund pending",
          amountCents: change.diffCents,
          paymentId: row.paymentId,
          note: `The ${diff} difference is not refunded yet (${refunded.message ?? "no answer"}): our office is checking it.`,
        });

      await mailRescheduled(tx, facts.mail, {
        from: fromVisit,
        to: toVisit,
        money,
        ...(refunded && !refunded.ok
          ? {
              actionNeeded: `The card processor did not confirm the ${diff} refund (${refunded.message ?? "no answer"}). Refund ${diff} to ${facts.card} in the processor's dashboard (after the payment settles, if it has not yet), then note it in Studio.`,
            }
          : {}),
      });
      await moveReminder(tx, { id: row.id, serviceDate: req.serviceDate, serviceTime: time }, token, now);
    });
  } catch (error) {
    await releasePlace(db, key).catch(() => {});
    if (charge) await giveBack(db, charge.paymentId, gateway);
    if (refunded?.ok)
      log.error(
        { bookingId: row.id },
        "a move's difference was refunded but the move was not stored: the company must check it",
      );
    if (error instanceof FormFailure) return fromFailure(error);
    log.error({ err: error, bookingId: row.id }, "booking could not be moved");
    return { ok: false, status: 500, message: RESCHEDULE_MESSAGES.failed };
  }
  return { ok: true, status: 200, message: `Your visit is moved to ${toVisit}. ${money}` };
}

function fromFailure(failure: FormFailure): RescheduleOutcome {
  const field = Object.keys(failure.fieldErrors)[0];
  return {
    ok: false,
    status: failure.status,
    message: failure.message,
    ...(field === "serviceDate" || field === "serviceTime" ? { field } : {}),
  };
}

const cardOf = (p: PaymentOutcome) => (p.brand && p.last4 ? `${p.brand} ending in ${p.last4}` : "your card");

/** A move that failed after its charge: the charge is voided (or refunded when it has settled). */
async function giveBack(db: Database, paymentId: number, gateway?: PaymentGateway): Promise<void> {
  const voided = await voidPayment(db, paymentId, { gateway }).catch(() => null);
  if (voided?.status === "voided") return;
  const refunded = await refundPayment(db, paymentId, { gateway }).catch(() => null);
  if (refunded?.status !== "refunded")
    log.error(
      { paymentId },
      "a move's charge could not be given back after the move failed: the company must refund it",
    );
}

/**
 * The difference of a cheaper move, refunded from the booking's charges, the latest first (a
 * difference charged by an earlier move, then the first payment): each gives what remains of it.
 */
async function refundDifference(
  db: Database,
  row: BookingRow,
  cents: number,
  gateway?: PaymentGateway,
): Promise<{ ok: boolean; paymentId: number | null; message?: string }> {
  const charges = await db
    .select({ id: payments.id, amount: payments.amountCents, refunded: payments.refundedCents })
    .from(payments)
    .where(
      and(
        eq(payments.referenceTable, "service_requests"),
        eq(payments.referenceId, row.id),
        eq(payments.status, "approved"),
      ),
    )
    .orderBy(desc(payments.id));
  let left = cents;
  let first: number | null = null;
  for (const c of charges) {
    if (left === 0) break;
    const part = Math.min(left, c.amount - c.refunded);
    if (part <= 0) continue;
    const outcome = await refundPart(db, c.id, part, { gateway }).catch(() => null);
    if (!outcome?.ok) return { ok: false, paymentId: c.id, message: outcome?.message ?? "no answer" };
    first ??= c.id;
    left -= part;
  }
  return left === 0
    ? { ok: true, paymentId: first }
    : { ok: false, paymentId: first, message: "nothing left to refund" };
}

async function declinesLastHour(db: Database, bookingId: number): Promise<number> {
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(
      and(
        like(payments.idempotencyKey, `reschedule:${bookingId}:%`),
        eq(payments.status, "declined"),
        gt(payments.createdAt, sql`now() - interval '1 hour'`),
      ),
    );
  return Number(n);
}

/** The twin of a change under way: waits for it, then says what became of the booking. */
async function awaitChange(
  db: Database,
  claim: string,
  id: number,
  req: RescheduleRequest,
  staleMs: number,
): Promise<RescheduleOutcome> {
  const deadline = Date.now() + staleMs;
  for (;;) {
    const state = await claimState(db, claim);
    if (state.state === "refused") return { ok: false, status: state.status, message: state.message };
    if (state.state === "none") break;
    if (Date.now() > deadline) return { ok: false, status: 409, message: RESCHEDULE_MESSAGES.busy };
    await sleep(200);
  }
  return (await lastMove(db, id, req)) ?? { ok: false, status: 409, message: RESCHEDULE_MESSAGES.changed };
}

/** The booking's last move, told again, when it went where this request asked. */
async function lastMove(db: Database, id: number, req: RescheduleRequest): Promise<RescheduleOutcome | null> {
  const [row] = await db
    .select({ date: serviceRequests.serviceDate, time: serviceRequests.serviceTime })
    .from(serviceRequests)
    .where(eq(serviceRequests.id, id));
  const [last] = await db
    .select({ note: bookingEvents.note, fromDate: bookingEvents.fromDate, fromTime: bookingEvents.fromTime })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.serviceRequestId, id), eq(bookingEvents.kind, "rescheduled")))
    .orderBy(desc(bookingEvents.id))
    .limit(1);
  if (row?.date !== req.serviceDate || row.time !== req.serviceTime || !last?.note || !last.fromDate || !last.fromTime)
    return null;
  return {
    ok: true,
    status: 200,
    message: moveMessage(last.note, { date: last.fromDate, time: last.fromTime }, { date: row.date, time: row.time }),
  };
}
