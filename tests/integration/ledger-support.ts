import { expect } from "vitest";
import type { Database } from "@db/client.server";
import { categories, products } from "@db/schema";
import { addDays } from "~/booking/availability";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { postMove, type MoveRequest } from "./move-support";
import { weekdayOf, type ServiceTime } from "~/booking/service-price";
import { invoiceForm } from "~/forms/invoice/handle.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { todayInDetroit } from "~/lib/company-time";
import type { PaymentGateway } from "~/payments/gateway";
import { addToCart, cartCookieHeader } from "~/shop/cart.server";
import { checkoutForm } from "~/shop/checkout/handle.server";
import { formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { checkoutFields, invoiceFields, residentialFields } from "./payments-support";

/** What the ledger's drills share: bookings, moves, orders and invoices posted as a visitor does. */
export const MORNING: ServiceTime = "Morning (8 AM to 11 AM)";
export const CARD = {
  number: "4242 4242 4242 4242",
  expMonth: "04",
  expYear: "30",
  cvc: "847",
  holder: "Grace Hopper",
};
/** Charged, answer lost; and never reached (the sandbox's test cards). */
export const LOST = { ...CARD, number: "4000 0000 0000 0119" };
export const UNREACHED = { ...CARD, number: "4000 0000 0000 0127" };

/** A date of the given weekday (0 Sunday) in a week of its own, never a holiday: each call a new week. */
export function weekdays(): (day: number) => string {
  let weeks = 0;
  const next = (day: number): string => {
    let date = addDays(todayInDetroit(), 7 * ++weeks);
    while (weekdayOf(date) !== day) date = addDays(date, 1);
    return /-(01-01|07-04|12-25)$/.test(date) ? next(day) : date;
  };
  return next;
}

export type Booked = {
  token: string;
  id: number;
  reference: string;
  email: string;
  paymentId: number;
  serviceDate: string;
  serviceTime: string;
};

/** A residential visit booked and paid through the form, as a visitor posts it. */
export async function book(
  db: Database,
  serviceDate: string,
  { serviceTime = MORNING, card = CARD, key = crypto.randomUUID(), gateway }: BookOptions = {},
): Promise<Booked> {
  const email = `drill-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const outcome = await postBooking(db, serviceDate, { serviceTime, card, key, gateway, email });
  expect(outcome.ok).toBe(true);
  const token = /^\/booking\/([A-Za-z0-9_-]{43})\?booked$/.exec(outcome.redirectTo!)![1]!;
  const [row] = await rows<{ id: number; reference: string; payment_id: number }>(
    db,
    `select id, reference, payment_id from service_requests where email = '${email}'`,
  );
  return { token, email, serviceDate, serviceTime, id: row!.id, reference: row!.reference, paymentId: row!.payment_id };
}

type BookOptions = { serviceTime?: string; card?: typeof CARD; key?: string; gateway?: PaymentGateway; email?: string };

/** The booking form's post, whatever it answers. */
export function postBooking(db: Database, serviceDate: string, options: BookOptions = {}) {
  const card = options.card ?? CARD;
  const fields = residentialFields(serviceDate, {
    serviceTime: options.serviceTime ?? MORNING,
    email: options.email ?? `drill-${crypto.randomUUID().slice(0, 8)}@example.com`,
    cardNumber: card.number,
  });
  const body = toFormData({
    ...fields,
    ...honeypotFields(),
    ...sumAnswer(),
    submission_key: options.key ?? crypto.randomUUID(),
  });
  return runForm(residentialServiceForm as FormDefinition, formPost("/request-service", body), {
    db,
    clientIp: nextIp(),
    gateway: options.gateway,
  });
}

/** A move of a booking from its page, as rendered for the visit it has now. */
export function move(
  db: Database,
  b: Pick<Booked, "token" | "serviceDate" | "serviceTime">,
  to: Partial<MoveRequest>,
  gateway?: PaymentGateway,
) {
  return postMove(
    db,
    b.token,
    {
      serviceDate: "",
      serviceTime: MORNING,
      changeKey: crypto.randomUUID().replaceAll("-", ""),
      currentVisit: `${b.serviceDate}|${b.serviceTime}`,
      ...to,
    },
    { gateway },
  );
}

/** A product of its own with `stock` units, for orders. */
export async function stockedProduct(db: Database, stock: number, priceCents = 24_900) {
  const [category] = await db
    .insert(categories)
    .values({ name: `Drill ${crypto.randomUUID()}` })
    .returning();
  const [item] = await db
    .insert(products)
    .values({ name: "Drill opener", priceCents, image: "/images/test/x.svg", categoryId: category!.id, stock })
    .returning();
  return item!;
}

/** One unit of the product bought through the checkout, with this card. */
export async function order(
  db: Database,
  productId: number,
  card: typeof CARD,
  total: string,
  gateway?: PaymentGateway,
) {
  const added = await addToCart(db, null, { inventory_id: productId, selectedOptions: {} }, nextIp());
  if (!added.ok) throw new Error(added.message);
  const cookie = (await cartCookieHeader(added.cartId)).split(";")[0]!;
  const email = `order-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const outcome = await runForm(
    checkoutForm,
    formPost(
      "/checkout",
      toFormData({
        ...checkoutFields({ cardNumber: card.number, total, email }),
        ...honeypotFields(),
        ...sumAnswer(),
        submission_key: crypto.randomUUID(),
      }),
      { Cookie: cookie },
    ),
    { db, clientIp: nextIp(), gateway },
  );
  expect(outcome.ok).toBe(true);
  return { email, outcome };
}

/** An invoice paid through its form, with this card. */
export async function payInvoice(db: Database, card: typeof CARD, gateway?: PaymentGateway) {
  const email = `invoice-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const outcome = await runForm(
    invoiceForm as FormDefinition,
    formPost(
      "/pay-invoice",
      toFormData({
        ...invoiceFields({ cardNumber: card.number, email }),
        ...honeypotFields(),
        ...sumAnswer(),
        submission_key: crypto.randomUUID(),
      }),
    ),
    { db, clientIp: nextIp(), gateway },
  );
  expect(outcome.ok).toBe(true);
  return { email, outcome };
}

export type LedgerRowView = {
  id: number;
  kind: string;
  state: string;
  amount_cents: number;
  parent_id: number | null;
  intent: string;
};

export const ledgerOf = (db: Database, bookingId: number) =>
  rows<LedgerRowView>(
    db,
    `select id, kind, state, amount_cents, parent_id, intent from payments
      where reference_table = 'service_requests' and reference_id = ${bookingId} order by id`,
  );

export const sum = (list: LedgerRowView[], kind: string, state = "succeeded") =>
  list.filter((r) => r.kind === kind && r.state === state).reduce((total, r) => total + r.amount_cents, 0);

/** The mails to one address, oldest first. */
export const mailsTo = (db: Database, to: string) =>
  rows<{ subject: string; text: string }>(db, `select subject, text from outbox where "to" = '${to}' order by id`);
