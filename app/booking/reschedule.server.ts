import { setTimeout as sleep } from "node:timers/promises";
import { and, desc, eq } from "drizzle-orm";
import type { Database, Tx } from "@db/client.server";
import { bookingEvents, serviceRequests } from "@db/schema";
import { company } from "~/content/company";
import { FormFailure, PAYMENT_DECLINED_MESSAGE, withNextStep } from "~/forms/pipeline";
import { confirmPlace, holdPlace, releasePlace } from "~/forms/residential/availability.server";
import { recordSubmission, storedSubmission } from "~/forms/submission-keys.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import type { CardInput, PaymentGateway } from "~/payments/gateway";
import { paymentGateway } from "~/payments/gateway.server";
import { performGiveBacks, requestGiveBack } from "~/payments/give-back.server";
import { moneyOf } from "~/payments/ledger.server";
import { formatUsd } from "~/payments/money";
import {
  declinedLastHour,
  linkPayment,
  liveCharge,
  performCharge,
  requestCharge,
  type PaymentOutcome,
} from "~/payments/payments.server";
import { undoCharge } from "~/payments/reconcile.server";
import { isServiceTime, type ServiceTime } from "~/payments/service-price";
import { BOOKING_BUSY, changeSentence, finishMoneyChange, mailChange, NOTHING_MOVED, subjectOf } from "./change.server";
import { canChangeOnline } from "./cutoff";
import { visitText, type BookingRow } from "./facts.server";
import { priceChange } from "./price-change";
import { isManageToken, manageTokenHash } from "./reference.server";
import { moveReminder } from "./reminders.server";

/**
 * Moving a paid visit to another window from its page (issue 29 item 5, issue 36, DECISIONS 31):
 * until the cut-off, to any open window of the booking form's calendar. The server prices the new
 * time against what the booking has actually been paid (net, from the ledger): the same, the
 * booking moves; dearer, the difference is charged to a card entered again (none is stored);
 * cheaper, the difference goes back to the card that paid.
 *
 * In order, as every paid form (app/forms/pipeline): the place held in the new window under its
 * lock; then, under the BOOKING's row lock, one transaction re-reads the booking (the visit the
 * form was rendered for must still be the booking's: a stale form is refused, never priced),
 * computes the amount from the ledger, and commits the ledger's request — the charge of a dearer
 * move, or (with the move itself) the give-back of a cheaper one. A second change of the booking
 * meanwhile finds the first's open charge and refuses; a double click's twin waits for it. Then
 * the processor is called with no transaction open, and one transaction stores a dearer move with
 * its charge. Whatever dies in between, the reconciler undoes a charge no move stands on and
 * sends a give-back that was requested.
 */
export type RescheduleRequest = {
  serviceDate: string;
  serviceTime: string;
  /** The change form's render key: a double click charges once. */
  changeKey: string;
  /** The visit the form was rendered for ("2026-12-06|Morning (8 AM to 11 AM)"): a booking moved since refuses it. */
  currentVisit?: string | null;
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
  busy: BOOKING_BUSY,
  changed: "This booking changed while you were choosing. Please look at it again before moving it.",
  tooManyDeclines: `Too many declined cards for this booking. Please call us at ${company.phone.display} to move your visit.`,
  failed: `Your visit could not be moved, and nothing was charged. Please try again, or call us at ${company.phone.display}.`,
  unknown: (diff: string) =>
    `We could not confirm the ${diff} payment with the card processor: ${diff} pending: we will confirm it by e-mail. Your visit stays as it was until then; please do not pay again.`,
} as const;

/** Card attempts per booking and hour (a booking's link is no card-testing tool). */
const DECLINES_PER_HOUR = 5;

const MOVABLE = new Set(["booked", "rescheduled"]);

/** "2026-12-06|Morning (8 AM to 11 AM)": the visit a move form was rendered for. */
export const visitKey = (row: { serviceDate: string; serviceTime: string }) => `${row.serviceDate}|${row.serviceTime}`;

export async function rescheduleBooking(
  db: Database,
  token: string | undefined,
  req: RescheduleRequest,
  { now = new Date(), gateway = paymentGateway(db) }: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<RescheduleOutcome> {
  if (!isManageToken(token)) return notFound();
  const [found] = await db
    .select({ id: serviceRequests.id, kind: serviceRequests.kind, total: serviceRequests.totalCents })
    .from(serviceRequests)
    .where(eq(serviceRequests.manageTokenHash, manageTokenHash(token)))
    .limit(1);
  if (!found || found.kind !== "residential" || found.total === null) return notFound();
  const key = `reschedule:${found.id}:${req.changeKey}`; // the hold's, the charge's, the recorded and the change's key
  // This form's move is done already (a double click's twin arriving after it, a refresh of the post): said again.
  if (await storedSubmission(db, key)) return (await lastMove(db, found.id, key, req)) ?? changed();
  if (!isServiceTime(req.serviceTime)) {
    const priced = priceChange(found.total, req, now);
    if (!priced.ok) return { ok: false, status: 400, message: priced.message, field: priced.field };
  }
  const time = req.serviceTime as ServiceTime;

  // 1. A place in the new window, under its lock (full, begun, past the horizon: refused here).
  const held = await holdPlace(db, key, req.serviceDate, time, now);
  if (held) return fromFailure(held);

  // 2. Under the booking's lock: re-read, price from the ledger, commit the ledger's request.
  let step: Step;
  try {
    step = await db.transaction((tx) => requestMove(tx, found.id, key, req, now, gateway.name, token!));
  } catch (error) {
    await releasePlace(db, key).catch(() => {});
    if (error instanceof FormFailure) return fromFailure(error);
    throw error;
  }
  if (step.kind === "refused") {
    await releasePlace(db, key);
    return step.outcome;
  }
  if (step.kind === "twin") {
    await releasePlace(db, key);
    return awaitTwin(db, found.id, key, req);
  }
  if (step.kind === "moved") {
    // 3. A cheaper move: the money goes back (no transaction open), then the mails say what moved.
    await performGiveBacks(db, step.giveBacks, { gateway });
    await finishMoneyChange(db, found.id, key, token);
    return movedOutcome(db, found.id, key, req);
  }

  // 3. A dearer move: the charge, then the move stored with it.
  const charge = await performCharge(
    db,
    step.chargeId,
    {
      amountCents: step.diffCents,
      idempotencyKey: key,
      card: req.card!,
      description: `Booking ${step.row.reference ?? step.row.id} moved to ${req.serviceDate} ${time}: difference`,
      customer: { email: step.row.email, ip: req.clientIp ?? undefined },
      billing: {
        address: step.row.address1,
        city: step.row.city,
        state: step.row.state,
        zip: step.row.zip,
        country: step.row.country,
      },
    },
    { gateway },
  );
  if (charge.status !== "approved") {
    await releasePlace(db, key);
    return chargeRefused(charge, step.diffCents);
  }
  try {
    await db.transaction((tx) => storeDearerMove(tx, found.id, key, req, step.newCents, charge, token!, now));
  } catch (error) {
    await releasePlace(db, key).catch(() => {});
    // Money taken for a move that could not be stored goes back at once (else the reconciler's).
    await undoCharge(db, charge.paymentId, { gateway }).catch(() => {});
    if (error instanceof FormFailure) return fromFailure(error);
    log.error({ err: error, bookingId: found.id }, "booking could not be moved");
    return { ok: false, status: 500, message: RESCHEDULE_MESSAGES.failed };
  }
  return movedOutcome(db, found.id, key, req);
}

type Step =
  | { kind: "refused"; outcome: RescheduleOutcome }
  | { kind: "twin" }
  | { kind: "moved"; giveBacks: number[] }
  | { kind: "charge"; chargeId: number; diffCents: number; newCents: number; row: BookingRow };

/** Step 2, inside one transaction holding the booking's row lock. */
async function requestMove(
  tx: Tx,
  id: number,
  key: string,
  req: RescheduleRequest,
  now: Date,
  processor: PaymentGateway["name"],
  token: string,
): Promise<Step> {
  const [row] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, id)).for("update");
  if (!row) return { kind: "refused", outcome: notFound() };
  if (await storedSubmission(tx, key)) return { kind: "twin" };
  const refusal = checkMovable(row, req, now);
  if (refusal) return { kind: "refused", outcome: refusal };
  const money = await moneyOf(tx, subjectOf(id));
  if (money.openCharge) {
    // This render's own charge in flight (a double click): its twin waits for it; another change refuses.
    const mine = await liveCharge(tx, key);
    return mine ? { kind: "twin" } : { kind: "refused", outcome: { ok: false, status: 409, message: BOOKING_BUSY } };
  }
  const paid = money.netCents - money.pendingOutCents;
  const change = priceChange(paid, req, now);
  if (!change.ok) return { kind: "refused", outcome: { ok: false, status: 400, message: change.message, field: change.field } };
  const time = req.serviceTime as ServiceTime;
  if (change.direction === "dearer") {
    if (!req.card)
      return {
        kind: "refused",
        outcome: { ok: false, status: 400, message: RESCHEDULE_MESSAGES.needsCard(formatUsd(change.diffCents)), field: "card" },
      };
    if ((await declinedLastHour(tx, `reschedule:${id}:`)) >= DECLINES_PER_HOUR)
      return { kind: "refused", outcome: { ok: false, status: 429, message: RESCHEDULE_MESSAGES.tooManyDeclines, field: "card" } };
    const chargeId = await requestCharge(
      tx,
      { purpose: "service", intent: "move", reference: subjectOf(id), amountCents: change.diffCents, idempotencyKey: key },
      processor,
    );
    if (chargeId === undefined) return { kind: "twin" };
    return { kind: "charge", chargeId, diffCents: change.diffCents, newCents: change.newCents, row };
  }
  // The same price or cheaper: the move and its ledger request commit together.
  await confirmPlace(tx, key, req.serviceDate, time);
  await recordSubmission(tx, key, "booking-change", { submissionTable: "service_requests", submissionId: id });
  const giveBacks =
    change.direction === "cheaper"
      ? await requestGiveBack(tx, { reference: subjectOf(id), cents: -change.diffCents, intent: "move", key })
      : [];
  await moveRow(tx, row, req, change.newCents, key, giveBacks[0] ?? null, -Math.max(0, -change.diffCents), token, now);
  // Nothing to send to the processor: the mails go with the move.
  if (giveBacks.length === 0) await mailChange(tx, { ...row, serviceDate: req.serviceDate, serviceTime: time }, key, token);
  return { kind: "moved", giveBacks };
}

/** The move itself: the booking's new window and price, its history line, its reminder. */
async function moveRow(
  tx: Tx,
  row: BookingRow,
  req: RescheduleRequest,
  newCents: number,
  key: string,
  paymentId: number | null,
  amountCents: number,
  token: string,
  now: Date,
): Promise<void> {
  const time = req.serviceTime as ServiceTime;
  await tx
    .update(serviceRequests)
    .set({ serviceDate: req.serviceDate, serviceTime: time, totalCents: newCents, bookingStatus: "rescheduled" })
    .where(eq(serviceRequests.id, row.id));
  await tx.insert(bookingEvents).values({
    serviceRequestId: row.id,
    kind: "rescheduled",
    fromDate: row.serviceDate,
    fromTime: row.serviceTime,
    toDate: req.serviceDate,
    toTime: time,
    amountCents,
    paymentId,
    changeKey: key,
    note: `Moved online from ${visitText(row.serviceDate, row.serviceTime)} to ${visitText(req.serviceDate, time)}.`,
  });
  await moveReminder(tx, { id: row.id, serviceDate: req.serviceDate, serviceTime: time }, token, now);
}

/** A dearer move's store, once its charge is approved: under the booking's lock again, with the charge resolved by it. */
async function storeDearerMove(
  tx: Tx,
  id: number,
  key: string,
  req: RescheduleRequest,
  newCents: number,
  charge: PaymentOutcome,
  token: string,
  now: Date,
): Promise<void> {
  const [row] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, id)).for("update");
  if (!row || !MOVABLE.has(row.bookingStatus ?? "booked") || visitKey(row) !== (req.currentVisit ?? visitKey(row)))
    throw new FormFailure(RESCHEDULE_MESSAGES.changed, {}, 409);
  const time = req.serviceTime as ServiceTime;
  await confirmPlace(tx, key, req.serviceDate, time);
  await recordSubmission(tx, key, "booking-change", { submissionTable: "service_requests", submissionId: id });
  await linkPayment(tx, charge.paymentId, subjectOf(id));
  await moveRow(tx, row, req, newCents, key, charge.paymentId, charge.amountCents, token, now);
  await mailChange(tx, { ...row, serviceDate: req.serviceDate, serviceTime: time, totalCents: newCents }, key, token);
}

function checkMovable(row: BookingRow, req: RescheduleRequest, now: Date): RescheduleOutcome | null {
  const cutoff = env().BOOKING_CHANGE_CUTOFF_HOURS;
  if (!MOVABLE.has(row.bookingStatus ?? "booked")) return { ok: false, status: 409, message: RESCHEDULE_MESSAGES.closed };
  // The form was rendered for another visit than the booking's now: a stale form is refused, never priced.
  if (req.currentVisit && req.currentVisit !== visitKey(row)) return changed();
  if (!canChangeOnline(row.serviceDate, row.serviceTime as ServiceTime, cutoff, now))
    return { ok: false, status: 409, message: RESCHEDULE_MESSAGES.tooLate(cutoff) };
  if (row.paymentStatus !== "paid") return { ok: false, status: 409, message: RESCHEDULE_MESSAGES.unpaid };
  if (req.serviceDate === row.serviceDate && req.serviceTime === row.serviceTime)
    return { ok: false, status: 400, message: RESCHEDULE_MESSAGES.same, field: "serviceTime" };
  return null;
}

function chargeRefused(charge: PaymentOutcome, diffCents: number): RescheduleOutcome {
  if (charge.status === "pending")
    return { ok: false, status: 202, message: RESCHEDULE_MESSAGES.unknown(formatUsd(diffCents)), field: "card" };
  // A card the issuer declined says what to do next, as every paid form's answer does.
  return {
    ok: false,
    status: 402,
    message:
      charge.status === "declined"
        ? withNextStep(charge.message ?? PAYMENT_DECLINED_MESSAGE)
        : (charge.message ?? PAYMENT_DECLINED_MESSAGE),
    field: "card",
  };
}

const notFound = (): RescheduleOutcome => ({ ok: false, status: 404, message: RESCHEDULE_MESSAGES.notFound });
const changed = (): RescheduleOutcome => ({ ok: false, status: 409, message: RESCHEDULE_MESSAGES.changed });

function fromFailure(failure: FormFailure): RescheduleOutcome {
  const field = Object.keys(failure.fieldErrors)[0];
  return {
    ok: false,
    status: failure.status,
    message: failure.message,
    ...(field === "serviceDate" || field === "serviceTime" ? { field } : {}),
  };
}

/** "Your visit is moved to …. $69.05 refunded to Visa ending in 4242 (…)." */
async function movedOutcome(db: Database, id: number, key: string, req: RescheduleRequest): Promise<RescheduleOutcome> {
  return (await lastMove(db, id, key, req)) ?? changed();
}

/** A double click's twin: waits for the first post of its render, then says what became of it. */
async function awaitTwin(db: Database, id: number, key: string, req: RescheduleRequest): Promise<RescheduleOutcome> {
  const deadline = Date.now() + env().PAYMENT_TIMEOUT_MS + 5_000;
  for (;;) {
    if (await storedSubmission(db, key)) return movedOutcome(db, id, key, req);
    const charge = await liveCharge(db, key);
    if (!charge || charge.status === "declined") return { ok: false, status: 402, message: withNextStep(PAYMENT_DECLINED_MESSAGE), field: "card" };
    if (charge.status === "pending" && Date.now() > deadline) return chargeRefused(charge, charge.amountCents);
    if (charge.status === "voided" || charge.status === "refunded") return { ok: false, status: 500, message: RESCHEDULE_MESSAGES.failed };
    await sleep(200);
  }
}

/** The move of this change key, told again: where it went and what moved. */
export async function lastMove(
  db: Database,
  id: number,
  key: string,
  req?: Pick<RescheduleRequest, "serviceDate" | "serviceTime">,
): Promise<RescheduleOutcome | null> {
  const [event] = await db
    .select()
    .from(bookingEvents)
    .where(and(eq(bookingEvents.serviceRequestId, id), eq(bookingEvents.changeKey, key)))
    .orderBy(desc(bookingEvents.id))
    .limit(1);
  if (!event?.toDate || !event.toTime) return null;
  if (req && (event.toDate !== req.serviceDate || event.toTime !== req.serviceTime)) return null;
  const money = (await changeSentence(db, id, key)) || NOTHING_MOVED;
  return { ok: true, status: 200, message: `Your visit is moved to ${visitText(event.toDate, event.toTime)}. ${money}` };
}
