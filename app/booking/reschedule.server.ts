import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Database, DbOrTx, Tx } from "@db/client.server";
import { bookingEvents, serviceRequests } from "@db/schema";
import { company } from "~/lib/company";
import { cardShape, refineCard } from "~/forms/card-schema";
import { FormFailure } from "~/forms/pipeline";
import { confirmPlace, holdPlace, releasePlace } from "~/booking/availability.server";
import { env } from "~/lib/env.server";
import { z } from "~/lib/zod";
import type { PaymentGateway } from "~/payments/gateway";
import { paymentGateway } from "~/payments/gateway.server";
import { requestGiveBack, resolveRows } from "~/payments/give-back.server";
import { moneyOf } from "~/payments/ledger.server";
import { formatUsd } from "~/payments/money";
import {
  declinedLastHour,
  linkPayment,
  liveCharge,
  assertSamePriced,
  requestCharge,
  type PaymentOutcome,
} from "~/payments/payments.server";
import type { ServiceTime } from "~/booking/service-price";
import { BOOKING_BUSY, changeSentence, mailChange, NOTHING_MOVED } from "./change.server";
import { bookingRecord } from "~/payments/record";
import { canChangeOnline } from "./cutoff";
import { visitText, type BookingRow } from "./facts.server";
import { priceChange, type PriceChange } from "./price-change";
import { changeWords, MONEY_WORDS, type MoneySums } from "~/payments/words";
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
    `We could not confirm the ${diff} payment with the card processor: ${MONEY_WORDS.pendingIn(diff, "your card")}. Your visit stays as it was until then; please do not pay again.`,
} as const;

const cardSchema = z.object(cardShape).superRefine(refineCard);

/** Card attempts per booking and hour (a booking's link is no card-testing tool). */
const DECLINES_PER_HOUR = 5;

const MOVABLE = new Set(["booked", "rescheduled"]);

/** What sets a move's price: its new window (bound to the render's key with the difference). */
export const movePriced = (value: Pick<MoveValue, "serviceDate" | "serviceTime">) => ({
  serviceDate: value.serviceDate,
  serviceTime: value.serviceTime,
});

/** "2026-12-06|Morning (8 AM to 11 AM)": the visit a move form was rendered for. */
export const visitKey = (row: { serviceDate: string; serviceTime: string }) => `${row.serviceDate}|${row.serviceTime}`;

/** What the move form's fields are once parsed (./move-form.server.ts's schema). */
export type MoveValue = {
  serviceDate: string;
  serviceTime: string;
  currentVisit?: string;
  cardHolder?: string;
  cardNumber?: string;
  cardExpMonth?: string;
  cardExpYear?: string;
  cardCVC?: string;
};

/** What the move's reserve step holds for its pay and store steps. */
export type MoveHold = {
  bookingId: number;
  token: string;
  kind: "charge" | "moved";
  diffCents: number;
  newCents: number;
};

/** The booking's token in the address the move form posts to (/booking/{token}?move, or its .data). */
export const tokenOf = (request: Request) =>
  /\/booking\/([A-Za-z0-9_-]{43})(?:\.data)?$/.exec(new URL(request.url).pathname)?.[1];

/**
 * The pipeline's hold and ledger request for a move (its `reserve`): the place held in the new
 * window; then, under the booking's lock, the form's visit re-checked, the difference priced from
 * the ledger, and its request committed — a dearer move's charge, or a cheaper move together with
 * the give-back of the difference.
 */
export async function reserveMove(
  db: Database,
  value: MoveValue,
  key: string,
  request: Request,
  { now = new Date(), gateway = paymentGateway(db) }: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<{ hold: MoveHold; ledger: { chargeId: number; fresh: boolean } | { giveBacks: number[] } } | FormFailure> {
  const token = tokenOf(request);
  if (!isManageToken(token)) return new FormFailure(RESCHEDULE_MESSAGES.notFound, {}, 404);
  const [found] = await db
    .select({ id: serviceRequests.id, kind: serviceRequests.kind, total: serviceRequests.totalCents })
    .from(serviceRequests)
    .where(eq(serviceRequests.manageTokenHash, manageTokenHash(token)))
    .limit(1);
  if (!found || found.kind !== "residential" || found.total === null)
    return new FormFailure(RESCHEDULE_MESSAGES.notFound, {}, 404);
  // The day and window judged before anything else reads them (a past day, an impossible date, a window that is no window).
  const priced = priceChange(found.total, value, now);
  if (!priced.ok) return new FormFailure(priced.message, { [priced.field]: [priced.message] }, 400);
  const time = value.serviceTime as ServiceTime;
  // 1. A place in the new window, under its lock (full, begun, past the horizon: refused here).
  const held = await holdPlace(db, key, value.serviceDate, time, now);
  if (held) return held;
  // 2. Under the booking's lock: re-read, price from the ledger, commit the ledger's request.
  let step: Step;
  try {
    step = await db.transaction((tx) => requestMove(tx, found.id, key, value, now, gateway.name, token));
  } catch (error) {
    await releasePlace(db, key).catch(() => {});
    if (error instanceof FormFailure) return error;
    throw error;
  }
  if (step.kind === "refused") {
    await releasePlace(db, key);
    return step.failure;
  }
  const hold: MoveHold = {
    bookingId: found.id,
    token,
    kind: step.kind,
    diffCents: step.diffCents,
    newCents: step.newCents,
  };
  return step.kind === "charge"
    ? { hold, ledger: { chargeId: step.chargeId, fresh: step.fresh } }
    : { hold, ledger: { giveBacks: step.giveBacks } };
}

/**
 * The pipeline's store for a move (its `handle`, inside the store's transaction): a dearer move
 * stored with its charge; a cheaper one (stored with its request) gets its mails, in the words of
 * what moved, resolving its give-backs.
 */
export async function storeMove(
  tx: Tx,
  value: MoveValue,
  key: string,
  hold: MoveHold,
  payment: PaymentOutcome | undefined,
  now: Date,
) {
  if (hold.kind === "charge") {
    await storeDearerMove(tx, hold.bookingId, key, value, hold.newCents, payment!, hold.token, now);
  } else {
    const [row] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, hold.bookingId)).for("update");
    if (row && (await resolveRows(tx, key)).length > 0) await mailChange(tx, row, key, hold.token);
  }
  const [row] = await tx
    .select({ name: serviceRequests.name, email: serviceRequests.email })
    .from(serviceRequests)
    .where(eq(serviceRequests.id, hold.bookingId));
  return { row: row!, bookingId: hold.bookingId };
}

type Step =
  | { kind: "refused"; failure: FormFailure }
  | { kind: "moved"; giveBacks: number[]; diffCents: number; newCents: number }
  | { kind: "charge"; chargeId: number; fresh: boolean; diffCents: number; newCents: number };

const refused = (message: string, status: number, fieldErrors: Record<string, string[]> = {}): Step => ({
  kind: "refused",
  failure: new FormFailure(message, fieldErrors, status),
});

/** Step 2, inside one transaction holding the booking's row lock. */
async function requestMove(
  tx: Tx,
  id: number,
  key: string,
  value: MoveValue,
  now: Date,
  processor: PaymentGateway["name"],
  token: string,
): Promise<Step> {
  const [row] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, id)).for("update");
  if (!row) return refused(RESCHEDULE_MESSAGES.notFound, 404);
  const refusal = checkMovable(row, value, now);
  if (refusal) return refusal;
  const money = await moneyOf(tx, bookingRecord(id));
  if (money.openCharge) return ownOpenCharge(tx, key, money.netCents - money.pendingOutCents, value, now);
  const change = priceChange(money.netCents - money.pendingOutCents, value, now);
  if (!change.ok) return refused(change.message, 400, { [change.field]: [change.message] });
  if (change.direction === "dearer") return requestDifference(tx, id, key, value, change, money, processor);
  return moveWithoutCharge(tx, row, key, value, change, token, now);
}

/**
 * The booking has a charge not yet final. When it is this render's own, sent by a post that died
 * before storing the move, its outcome is this post's; any other makes the booking busy.
 */
async function ownOpenCharge(tx: Tx, key: string, paidCents: number, value: MoveValue, now: Date): Promise<Step> {
  const mine = await liveCharge(tx, key);
  if (!mine || mine.status === "declined" || mine.linked) return refused(BOOKING_BUSY, 409);
  const priced = priceChange(paidCents, value, now);
  // The render's charge was for one window: a re-post for another is refused, never moved at its price.
  if (priced.ok) await assertSamePriced(tx, key, priced.diffCents, movePriced(value));
  return priced.ok
    ? { kind: "charge", chargeId: mine.paymentId, fresh: false, diffCents: mine.amountCents, newCents: priced.newCents }
    : refused(BOOKING_BUSY, 409);
}

/** A priced change to another window (dearer, the same or cheaper). */
type PricedChange = Extract<PriceChange, { ok: true }>;

/** A dearer window: the card is checked, the declines counted, and the difference's charge requested (its ledger row). */
async function requestDifference(
  tx: Tx,
  id: number,
  key: string,
  value: MoveValue,
  change: PricedChange,
  money: MoneySums,
  processor: PaymentGateway["name"],
): Promise<Step> {
  const cardRefusal = checkCard(value, change, money);
  if (cardRefusal) return cardRefusal;
  if ((await declinedLastHour(tx, bookingRecord(id), "move")) >= DECLINES_PER_HOUR)
    return refused(RESCHEDULE_MESSAGES.tooManyDeclines, 429, { cardNumber: [RESCHEDULE_MESSAGES.tooManyDeclines] });
  const request = {
    purpose: "service" as const,
    intent: "move" as const,
    reference: bookingRecord(id),
    amountCents: change.diffCents,
    idempotencyKey: key,
    priced: movePriced(value),
  };
  const chargeId = await requestCharge(tx, request, processor);
  if (chargeId === undefined) return refused(BOOKING_BUSY, 409);
  return { kind: "charge", chargeId, fresh: true, diffCents: change.diffCents, newCents: change.newCents };
}

/** The card for a dearer window's difference: a refusal naming what to fix, or undefined when it passes. */
function checkCard(value: MoveValue, change: PricedChange, money: MoneySums): Step | undefined {
  const card = cardSchema.safeParse({
    cardHolder: value.cardHolder ?? "",
    cardNumber: value.cardNumber ?? "",
    cardExpMonth: value.cardExpMonth ?? "",
    cardExpYear: value.cardExpYear ?? "",
    cardCVC: value.cardCVC ?? "",
  });
  if (card.success) return undefined;
  const errors: Record<string, string[]> = {};
  for (const issue of card.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
  const nothingTyped = !value.cardNumber?.trim();
  const message = nothingTyped
    ? RESCHEDULE_MESSAGES.needsCard(formatUsd(change.diffCents))
    : `${changeWords(money, change.newCents)} Please check the card details.`;
  return refused(message, 400, nothingTyped ? { cardNumber: [message] } : errors);
}

/** The same price or cheaper: the move and its ledger request (a give-back) commit together. */
async function moveWithoutCharge(
  tx: Tx,
  row: BookingRow,
  key: string,
  value: MoveValue,
  change: PricedChange,
  token: string,
  now: Date,
): Promise<Step> {
  const time = value.serviceTime as ServiceTime;
  await confirmPlace(tx, key, value.serviceDate, time);
  const giveBacks =
    change.direction === "cheaper"
      ? await requestGiveBack(tx, { reference: bookingRecord(row.id), cents: -change.diffCents, intent: "move", key })
      : [];
  const refundCents = -Math.max(0, -change.diffCents);
  await moveRow(tx, row, value, change.newCents, key, giveBacks[0] ?? null, refundCents, token, now);
  // Nothing to send to the processor: the mails go with the move.
  if (giveBacks.length === 0)
    await mailChange(tx, { ...row, serviceDate: value.serviceDate, serviceTime: time }, key, token);
  return { kind: "moved", giveBacks, diffCents: change.diffCents, newCents: change.newCents };
}

/** The move itself: the booking's new window and price, its history line, its reminder. */
async function moveRow(
  tx: Tx,
  row: BookingRow,
  req: Pick<MoveValue, "serviceDate" | "serviceTime">,
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
  req: MoveValue,
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
  await linkPayment(tx, charge.paymentId, bookingRecord(id));
  await moveRow(tx, row, req, newCents, key, charge.paymentId, charge.amountCents, token, now);
  await mailChange(tx, { ...row, serviceDate: req.serviceDate, serviceTime: time, totalCents: newCents }, key, token);
}

function checkMovable(row: BookingRow, req: MoveValue, now: Date): Step | null {
  const cutoff = env().BOOKING_CHANGE_CUTOFF_HOURS;
  if (!MOVABLE.has(row.bookingStatus ?? "booked")) return refused(RESCHEDULE_MESSAGES.closed, 409);
  // The form was rendered for another visit than the booking's now: a stale form is refused, never priced.
  if (req.currentVisit && req.currentVisit !== visitKey(row)) return refused(RESCHEDULE_MESSAGES.changed, 409);
  if (!canChangeOnline(row.serviceDate, row.serviceTime as ServiceTime, cutoff, now))
    return refused(RESCHEDULE_MESSAGES.tooLate(cutoff), 409);
  if (row.paymentStatus !== "paid") return refused(RESCHEDULE_MESSAGES.unpaid, 409);
  if (req.serviceDate === row.serviceDate && req.serviceTime === row.serviceTime)
    return refused(RESCHEDULE_MESSAGES.same, 400, { serviceTime: [RESCHEDULE_MESSAGES.same] });
  return null;
}

/** The move of this change key, told again: where it went and what moved. */
export async function lastMove(
  db: DbOrTx,
  id: number,
  key: string,
  req?: Pick<MoveValue, "serviceDate" | "serviceTime">,
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
  return {
    ok: true,
    status: 200,
    message: `Your visit is moved to ${visitText(event.toDate, event.toTime)}. ${money}`,
  };
}

/** The booking's last move, told again (the page after a move, /booking/{token}?moved): where it went and what moved. */
export async function lastMoveByToken(db: DbOrTx, token: string | undefined): Promise<string | null> {
  if (!isManageToken(token)) return null;
  const [move] = await db
    .select({ id: bookingEvents.serviceRequestId, changeKey: bookingEvents.changeKey })
    .from(bookingEvents)
    .innerJoin(serviceRequests, eq(serviceRequests.id, bookingEvents.serviceRequestId))
    .where(
      and(
        eq(serviceRequests.manageTokenHash, manageTokenHash(token)),
        eq(bookingEvents.kind, "rescheduled"),
        isNotNull(bookingEvents.changeKey),
      ),
    )
    .orderBy(desc(bookingEvents.id))
    .limit(1);
  if (!move?.changeKey) return null;
  return (await lastMove(db, move.id, move.changeKey))?.message ?? null;
}
