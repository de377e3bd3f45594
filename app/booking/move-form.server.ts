import type { SubmissionResult } from "@conform-to/react";
import { z } from "~/lib/zod";
import type { Database } from "@db/client.server";
import { CARD_SECRET_FIELDS, CARD_SECRETS_NOTICE } from "~/forms/card-names";
import { cardInput } from "~/forms/card-schema";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { PREVIEW_VALUE } from "~/booking/form/identity";
import { formatUsd } from "~/payments/money";
import { releasePlace } from "./availability.server";
import { priceChange } from "./price-change";
import { changeWords, keptCents } from "~/payments/words";
import { findBookingByToken } from "./manage.server";
import { MOVE_FORM_ID, MOVE_INTENT } from "./move-form";
import {
  movePriced,
  RESCHEDULE_MESSAGES,
  reserveMove,
  storeMove,
  tokenOf,
  type MoveHold,
  type MoveValue,
} from "./reschedule.server";

/**
 * The move form of a booking's page (/booking/{token}?move) as a paid form of THE pipeline
 * (issue 36 item 3): gate → check → claim → hold → pay → store → reply, as the booking form and
 * the checkout. Its guard is the booking's link (no captcha, honeypot or fill time: the page is
 * one visitor's, reached by its unguessable token); its submission key is the render's, so a
 * double click's twin waits for the first post and answers as it did. `reserve` holds the place
 * and commits the ledger's request under the booking's lock (./reschedule.server.ts); the pay
 * step sends it (the difference charged, or given back); `handle` stores a dearer move with its
 * charge, or writes a cheaper one's mails. "Show price" (without JavaScript) re-renders the kept
 * day and window with what the change costs.
 */
const moveSchema = z.object({
  serviceDate: z.string().trim().max(20).default(""),
  serviceTime: z.string().trim().max(60).default(""),
  currentVisit: z.string().trim().max(120).optional(),
  intent: z.string().max(20).optional(),
  // The card's own checks run once the server knows the move costs more (./reschedule.server.ts).
  cardHolder: z.string().max(200).optional(),
  cardNumber: z.string().max(200).optional(),
  cardExpMonth: z.string().max(200).optional(),
  cardExpYear: z.string().max(200).optional(),
  cardCVC: z.string().max(200).optional(),
});

export const moveForm: FormDefinition<typeof moveSchema, MoveHold> = {
  id: MOVE_FORM_ID,
  noun: "booking change",
  schema: moveSchema,
  successMessage: "Your visit is moved.",
  secretFields: CARD_SECRET_FIELDS,
  secretsNotice: CARD_SECRETS_NOTICE,
  guard: "link",
  // One visitor's page: its own budget, above any person's pace (a card-testing script meets the
  // booking's cap on declined cards first).
  rateLimit: { max: 100, windowSeconds: 600 },
  preview: { field: "intent", value: PREVIEW_VALUE },
  payment: {
    purpose: "service",
    amountCents: (_value, hold) => (hold.kind === "charge" ? hold.diffCents : 0),
    card: (value) => cardInput(cardValue(value)),
    description: (value) => `Booking moved to ${value.serviceDate} ${value.serviceTime}: difference`,
    priced: (value) => movePriced(value),
    reserve: (db, value, key, request, options) => reserveMove(db, value, key, request, options),
    release: (db, key) => releasePlace(db, key),
    refusePending: (_value, hold) => RESCHEDULE_MESSAGES.unknown(formatUsd(hold.diffCents)),
    answerPath: (request) => `/booking/${tokenOf(request) ?? ""}?moved#booking`,
  },
  async handle(tx, value, ctx) {
    const stored = await storeMove(tx, value, ctx.paymentKey!, ctx.hold!, ctx.payment, ctx.now);
    return {
      submission: { table: "service_requests", id: stored.bookingId },
      summary: [],
      name: stored.row.name,
      email: stored.row.email,
      ownMails: true,
      redirectTo: `/booking/${ctx.hold!.token}?moved#booking`,
    };
  },
};

function cardValue(value: MoveValue): Parameters<typeof cardInput>[0] {
  return {
    cardHolder: value.cardHolder ?? "",
    cardNumber: value.cardNumber ?? "",
    cardExpMonth: value.cardExpMonth ?? "",
    cardExpYear: value.cardExpYear ?? "",
    cardCVC: value.cardCVC ?? "",
  };
}

export type MoveAnswer = {
  form: typeof MOVE_FORM_ID;
  ok: boolean;
  message: string | null;
  /** Said after a refusal that carried a card. */
  notice: string | null;
  lastResult: SubmissionResult<string[]> | null;
  /** What the kept day and window cost against what was paid, when they are a real choice. */
  change: { dearer: boolean; text: string } | null;
  /** Where the page goes after a move (its own address, ?moved). */
  redirect?: string;
  status: number;
};

/** The move form's post, answered for the booking's page (null: no such booking). */
export async function answerMove(
  db: Database,
  request: Request,
  clientIp: string | null,
  now = new Date(),
): Promise<MoveAnswer | null> {
  const booking = await findBookingByToken(db, tokenOf(request));
  if (!booking) return null;
  const outcome = await runForm(moveForm, request, { db, clientIp, url: new URL(request.url), now });
  if (outcome.ok && outcome.redirectTo) return { ...answer(outcome), redirect: outcome.redirectTo };
  const values = (outcome.reply?.initialValue ?? {}) as Record<string, unknown>;
  const picked = { serviceDate: String(values.serviceDate ?? ""), serviceTime: String(values.serviceTime ?? "") };
  const priced = picked.serviceDate ? priceChange(keptCents(booking.money), picked, now) : null;
  return {
    ...answer(outcome),
    // "Show price" is a fine answer; its kept day's refusal (a day past, a window begun) sits beside its field.
    ok: outcome.preview ? true : outcome.ok,
    change: priced?.ok
      ? { dearer: priced.direction === "dearer", text: changeWords(booking.money, priced.newCents) }
      : null,
    ...(outcome.preview && priced && !priced.ok
      ? { lastResult: outcome.reply && { ...outcome.reply, error: { [priced.field]: [priced.message] } } }
      : {}),
  };
}

function answer(outcome: Awaited<ReturnType<typeof runForm>>): MoveAnswer {
  return {
    form: MOVE_FORM_ID,
    ok: outcome.ok,
    message: outcome.message || null,
    notice: outcome.notice ?? null,
    lastResult: outcome.reply,
    change: null,
    status: outcome.status,
  };
}

export { MOVE_INTENT };
