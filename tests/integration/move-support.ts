import type { Database } from "@db/client.server";
import { moveForm } from "~/booking/move-form.server";
import { lastMoveByToken, type RescheduleOutcome } from "~/booking/reschedule.server";
import { isManageToken } from "~/booking/reference.server";
import { runForm } from "~/forms/pipeline";
import type { CardInput, PaymentGateway } from "~/payments/gateway";
import { formPost } from "./forms-support";

/** What a test moves a booking to: the move form's fields, as the booking's page posts them. */
export type MoveRequest = {
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

/**
 * A move as the booking's page posts it (/booking/{token}?move, app/booking/move-form.server.ts),
 * run through the form pipeline; answered as the page would say it, with the field a refusal
 * belongs beside.
 */
export async function postMove(
  db: Database,
  token: string | undefined,
  req: MoveRequest,
  options: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<RescheduleOutcome> {
  const fields = new FormData();
  fields.set("serviceDate", req.serviceDate);
  fields.set("serviceTime", req.serviceTime);
  fields.set("submission_key", req.changeKey);
  fields.set("intent", "move");
  if (req.currentVisit) fields.set("currentVisit", req.currentVisit);
  if (req.card) {
    fields.set("cardHolder", req.card.holder);
    fields.set("cardNumber", req.card.number);
    fields.set("cardExpMonth", String(req.card.expMonth));
    fields.set("cardExpYear", String(req.card.expYear));
    fields.set("cardCVC", req.card.cvc);
  }
  const post = formPost(`/booking/${token ?? ""}?move`, fields);
  const outcome = await runForm(moveForm, post, { db, clientIp: req.clientIp ?? null, ...options });
  if (outcome.ok) {
    const said = isManageToken(token) ? await lastMoveByToken(db, token) : null;
    return { ok: true, status: 200, message: said ?? outcome.message };
  }
  const field = Object.keys(outcome.fieldErrors)[0];
  return {
    ok: false,
    status: outcome.status,
    message: outcome.message,
    ...(field === "serviceDate" || field === "serviceTime"
      ? { field }
      : field?.startsWith("card")
        ? { field: "card" as const }
        : {}),
  };
}
