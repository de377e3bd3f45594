import { randomBytes } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "~/lib/zod";
import type { Database } from "@db/client.server";
import { CARD_SECRET_FIELDS, CARD_SECRETS_NOTICE } from "~/forms/card-names";
import { cardInput, cardShape, refineCard } from "~/forms/card-schema";
import { PREVIEW_VALUE } from "~/forms/residential/identity";
import { rescheduleBooking } from "./reschedule.server";
import { priceChange, priceChangeText } from "./price-change";
import { findBookingByToken } from "./manage.server";
import { MOVE_FORM_ID } from "./move-form";

/**
 * The move form's post on a booking's page (/booking/{token}?move): "Show price" (without
 * JavaScript: the kept day and window re-rendered with what the change costs) or "Move my visit".
 * Fields keep their values on a refusal; the card number and CVC never come back.
 */

export type MoveAnswer = {
  form: typeof MOVE_FORM_ID;
  ok: boolean;
  message: string | null;
  /** Said after a refusal that carried a card. */
  notice: string | null;
  lastResult: SubmissionResult<string[]>;
  /** What the kept day and window cost against what was paid, when they are a real choice. */
  change: { dearer: boolean; text: string } | null;
  /** Where the page goes after a move (its own address, ?moved). */
  redirect?: string;
};

const moveSchema = z.object({
  serviceDate: z.string().trim().max(20).optional(),
  serviceTime: z.string().trim().max(60).optional(),
  changeKey: z.string().trim().max(64).optional(),
  currentVisit: z.string().trim().max(120).optional(),
  intent: z.string().optional(),
  cardHolder: z.string().optional(),
  cardNumber: z.string().optional(),
  cardExpMonth: z.string().optional(),
  cardExpYear: z.string().optional(),
  cardCVC: z.string().optional(),
});

/** A move form's render key (a double click of "Move my visit" moves and charges once). */
export const newChangeKey = (): string => randomBytes(18).toString("base64url");

const cardSchema = z.object(cardShape).superRefine(refineCard);
const CHANGE_KEY = /^[A-Za-z0-9_-]{16,64}$/;

export async function answerMove(
  db: Database,
  token: string,
  fields: FormData,
  clientIp: string | null,
  now = new Date(),
): Promise<MoveAnswer | null> {
  const booking = await findBookingByToken(db, token);
  if (!booking) return null;
  const submission = parseWithZod(fields, { schema: moveSchema });
  const value = submission.status === "success" ? submission.value : {};
  const serviceDate = value.serviceDate ?? "";
  const serviceTime = value.serviceTime ?? "";
  const priced = priceChange(booking.backOnCancelCents, { serviceDate, serviceTime }, now);
  const change = priced.ok ? { dearer: priced.direction === "dearer", text: priceChangeText(priced) } : null;
  const secretsPosted = CARD_SECRET_FIELDS.some((name) => String(fields.get(name) ?? "").trim());
  const reply = (fieldErrors: Record<string, string[]> = {}, formErrors: string[] = []) =>
    submission.reply({ fieldErrors, formErrors, hideFields: [...CARD_SECRET_FIELDS] });
  const answer = (ok: boolean, message: string | null, lastResult: SubmissionResult<string[]>): MoveAnswer => ({
    form: MOVE_FORM_ID,
    ok,
    message,
    notice: !ok && secretsPosted ? CARD_SECRETS_NOTICE : null,
    lastResult,
    change,
  });

  if (value.intent === PREVIEW_VALUE) {
    // Show price: nothing changes; a day that cannot be priced says why beside its field.
    return answer(true, null, priced.ok || !serviceDate ? reply() : reply({ [priced.field]: [priced.message] }));
  }
  if (!value.changeKey || !CHANGE_KEY.test(value.changeKey))
    return answer(false, "This form has expired. Please reload the page and choose again.", reply());

  let card = null;
  if (priced.ok && priced.direction === "dearer") {
    const checked = cardSchema.safeParse({
      cardHolder: value.cardHolder ?? "",
      cardNumber: value.cardNumber ?? "",
      cardExpMonth: value.cardExpMonth ?? "",
      cardExpYear: value.cardExpYear ?? "",
      cardCVC: value.cardCVC ?? "",
    });
    if (!checked.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of checked.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
      const message = `${priceChangeText(priced)} Please check the card details.`;
      return answer(false, message, reply(errors, [message]));
    }
    card = cardInput(checked.data);
  }

  const outcome = await rescheduleBooking(
    db,
    token,
    { serviceDate, serviceTime, changeKey: value.changeKey, currentVisit: value.currentVisit ?? null, card, clientIp },
    { now },
  );
  if (outcome.ok) return { ...answer(true, outcome.message, reply()), redirect: "?moved" };
  const field = outcome.field === "card" ? "cardNumber" : outcome.field;
  return answer(false, outcome.message, reply(field ? { [field]: [outcome.message] } : {}, [outcome.message]));
}
