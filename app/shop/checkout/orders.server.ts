import { and, asc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { DbOrTx, Tx } from "@db/client.server";
import { orderLines, orders, products, type OrderProgress, type OrderStatus } from "@db/schema";
import { company } from "~/lib/company";
import { mailPaymentResolved } from "~/mail/payment-resolved.server";
import { isLinkToken, linkTokenHash, newLinkToken, randomReference } from "~/lib/link-token.server";
import { formatUsd } from "~/payments/money";
import { moneyOf } from "~/payments/ledger.server";
import { cardLabel } from "~/payments/words";
import { moneySentence } from "~/payments/words";
import type { LedgerRow, PaymentOutcome } from "~/payments/payments.server";
import { orderRecord } from "~/payments/record";
import type { RecordLedger } from "~/payments/reconcile.server";
import { lineTotalCents, unitsAndPrice } from "../pricing";
import { installationOf } from "./installation";
import type { CheckoutInput } from "./schema";
import type { CheckoutCart } from "./stock.server";

/**
 * Orders (issue 17 items 5–6, issue 30 items 3–4): written by the checkout's
 * transaction with a short reference, the page's token (its hash only) and
 * where to install; read back by the order's page (/order/{token}, DECISIONS
 * 32) and by /order-confirmation for the cart cookie that placed them only
 * (DECISIONS 21).
 */

export type OrderMeta = { page: string; clientIp: string | null };

/** "DO-7K3M-Q9": what the buyer and staff call an order (random: it says nothing of how many there are). */
export const newOrderReference = (): string => randomReference("DO");

export type PlacedOrder = { id: number; reference: string; token: string };

/**
 * The order and its lines as charged (each with its quantity): the cart as it was held, the
 * payment's outcome, where to install (the billing address copied when it is the same), its
 * reference and its page's token (the token goes back to the caller for the redirect and the
 * mail, then nowhere; the row keeps its SHA-256). A reference already taken is drawn again in
 * the same transaction, so a collision never fails a paid order.
 */
export async function insertOrder(
  tx: Tx,
  value: CheckoutInput,
  cart: CheckoutCart,
  payment: PaymentOutcome,
  meta: OrderMeta,
): Promise<PlacedOrder> {
  const status: OrderStatus = payment.status === "approved" ? "paid" : "pending";
  const installation = installationOf(value);
  const { token, hash } = newLinkToken();
  for (let draw = 0; draw < 8; draw++) {
    const reference = newOrderReference();
    const [row] = await tx
      .insert(orders)
      .values({
        cartId: cart.cartId,
        status,
        totalCents: cart.totalCents,
        paymentId: payment.paymentId,
        cardBrand: payment.brand ?? null,
        cardLast4: payment.last4 ?? null,
        name: value.name,
        email: value.email,
        phone: value.phone,
        address: value.address,
        city: value.city,
        state: value.state,
        zip: value.zip,
        page: meta.page,
        clientIp: meta.clientIp,
        reference,
        orderPageTokenHash: hash,
        installationSameAsBilling: installation.sameAsBilling,
        installationAddress: installation.address,
        installationCity: installation.city,
        installationState: installation.state,
        installationZip: installation.zip,
      })
      .onConflictDoNothing({ target: orders.reference })
      .returning({ id: orders.id });
    if (!row) continue;
    await tx.insert(orderLines).values(
      cart.lines.map((line) => ({
        orderId: row.id,
        productId: line.productId,
        name: line.name,
        selectedOptions: line.selectedOptions,
        quantity: line.quantity,
        // One unit's price; Postgres keeps line_total_cents (price × quantity) beside it.
        priceCents: line.priceCents,
      })),
    );
    return { id: row.id, reference, token };
  }
  throw new Error("no free order reference after 8 draws");
}

/** One line of an order as the buyer reads it: money formatted on the server. */
export type OrderLineView = {
  name: string;
  /** "Horsepower: 3/4 HP", one per option chosen. */
  options: string[];
  quantity: number;
  /** One unit's price, "$39.00". */
  unitPrice: string;
  /** "2 × $39.00" (several units) or "$39.00". */
  units: string;
  lineTotal: string;
};

/** What the order's page, the confirmation page and the mails show of one order. */
export type OrderView = {
  reference: string;
  placedAt: string;
  progress: OrderProgress;
  /** The payment approved ('paid'); otherwise it is being confirmed (never called paid). */
  paid: boolean;
  lines: OrderLineView[];
  total: string;
  totalCents: number;
  /** "Visa ending in 4242", or what is known of the card. */
  card: string;
  /** What moved for it, from the ledger: "$249.00 charged to Visa ending in 4242." or "a charge of $249.00 to …, not confirmed yet: …". */
  payment: string;
  name: string;
  email: string;
  phone: string;
  /** The billing address, in lines. */
  billing: string[];
  /** Where to install, in lines, and whether it is the billing address. */
  installation: { sameAsBilling: boolean; lines: string[] };
};

export function orderLineView(line: {
  name: string;
  selectedOptions: Record<string, string>;
  quantity: number;
  priceCents: number;
}): OrderLineView {
  return {
    name: line.name,
    options: Object.entries(line.selectedOptions).map(([name, label]) => `${name}: ${label}`),
    quantity: line.quantity,
    unitPrice: formatUsd(line.priceCents),
    units: line.quantity === 1 ? formatUsd(line.priceCents) : unitsAndPrice(line.quantity, line.priceCents),
    lineTotal: formatUsd(lineTotalCents(line.priceCents, line.quantity)),
  };
}

/** An address in the lines an envelope has. */
export const addressLines = (a: { address: string; city: string; state: string; zip: string }) => [
  a.address,
  `${a.city}, ${a.state} ${a.zip}`,
];

async function findOrderView(db: DbOrTx, where: SQL | undefined): Promise<(OrderView & { id: number }) | null> {
  const [o] = await db.select().from(orders).where(where).limit(1);
  if (!o) return null;
  const lines = await db
    .select({
      name: orderLines.name,
      selectedOptions: orderLines.selectedOptions,
      quantity: orderLines.quantity,
      priceCents: orderLines.priceCents,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, o.id))
    .orderBy(asc(orderLines.id));
  const billing = { address: o.address, city: o.city, state: o.state, zip: o.zip };
  // Orders of before the question have no installation address: they were installed at the billing one.
  const installation =
    o.installationAddress && o.installationCity && o.installationState && o.installationZip
      ? { address: o.installationAddress, city: o.installationCity, state: o.installationState, zip: o.installationZip }
      : billing;
  return {
    id: o.id,
    // Null only for an order a machine on the code of before wrote during a rolling deploy.
    reference: o.reference ?? "being assigned",
    placedAt: o.createdAt.toISOString(),
    progress: o.orderStatus,
    paid: o.status === "paid",
    lines: lines.map(orderLineView),
    total: formatUsd(o.totalCents),
    totalCents: o.totalCents,
    card: cardLabel(o.cardBrand, o.cardLast4),
    payment: await paymentSentence(db, o.id),
    name: o.name,
    email: o.email,
    phone: o.phone,
    billing: addressLines(billing),
    installation: { sameAsBilling: o.installationSameAsBilling, lines: addressLines(installation) },
  };
}

/** The order a page token opens, or null (unknown or malformed: no database read for a malformed one). */
export async function findOrderByToken(db: DbOrTx, token: string | undefined): Promise<OrderView | null> {
  if (!isLinkToken(token)) return null;
  const order = await findOrderView(db, eq(orders.orderPageTokenHash, linkTokenHash(token)));
  if (!order) return null;
  const { id: _id, ...view } = order;
  return view;
}

/** The order /order-confirmation shows: this cart's, by its row id (`?order=`) or its payment (`?payment=`). */
export async function findOwnOrderView(
  db: DbOrTx,
  by: { orderId: number } | { paymentId: number },
  cartId: string | null,
): Promise<OrderView | null> {
  const id = "orderId" in by ? by.orderId : by.paymentId;
  if (!cartId || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const key = "orderId" in by ? eq(orders.id, id) : eq(orders.paymentId, id);
  const order = await findOrderView(db, and(key, eq(orders.cartId, cartId)));
  if (!order) return null;
  const { id: _id, ...view } = order;
  return view;
}

export type OwnOrder = { id: number; reference: string | null; totalCents: number; status: OrderStatus };

/** An order, when this cart placed it; otherwise null (absent, not theirs, no cart). */
export async function findOwnOrder(db: DbOrTx, orderId: number, cartId: string | null): Promise<OwnOrder | null> {
  if (!cartId || !Number.isSafeInteger(orderId) || orderId < 1 || orderId > 2_147_483_647) return null;
  const [row] = await db
    .select({ id: orders.id, reference: orders.reference, totalCents: orders.totalCents, status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.cartId, cartId)))
    .limit(1);
  return row ?? null;
}

/** A resubmission knows only its payment: the confirmation page finds the order from it (never the token). */
export const paymentConfirmationPath = (paymentId: number) => `/order-confirmation?payment=${paymentId}`;

/** An order stored while its payment's answer was unknown, settled by the processor's record: paid, or cancelled (nothing taken). */
export async function settlePendingOrder(
  tx: DbOrTx,
  orderId: number,
  charge: LedgerRow,
  paid: boolean,
): Promise<boolean> {
  const [order] = await tx
    .update(orders)
    .set(paid ? { status: "paid" } : { orderStatus: "cancelled", stockReturnedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.status, "pending"), ne(orders.orderStatus, "cancelled")))
    .returning();
  if (!order) return false;
  // Released unpaid: its units go back to stock in the same transaction.
  if (!paid) {
    const lines = await tx
      .select({ productId: orderLines.productId, quantity: orderLines.quantity })
      .from(orderLines)
      .where(eq(orderLines.orderId, orderId));
    for (const line of lines)
      if (line.productId !== null)
        await tx
          .update(products)
          .set({ stock: sql`${products.stock} + ${line.quantity}` })
          .where(eq(products.id, line.productId));
  }
  await mailPaymentResolved(tx, {
    to: order.email,
    name: order.name,
    what: `order ${order.reference ?? `#${order.id}`}`,
    outcome: paid ? "confirmed" : "released",
    money: paid ? await paymentSentence(tx, orderId) : "Nothing was charged to your card.",
    next: paid
      ? "Your order is paid: we will call you to schedule its installation."
      : `Your order is cancelled. Please order again, or call us at ${company.phone.display}.`,
    source: { table: "orders", id: orderId },
  });
  return true;
}

/** What each order should have been paid, net (the payments audit): its total, or nothing once released unpaid. */
export async function expectedOrderPayments(db: DbOrTx) {
  const rows = await db
    .select({
      id: orders.id,
      reference: orders.reference,
      total: orders.totalCents,
      status: orders.status,
      progress: orders.orderStatus,
      stockReturnedAt: orders.stockReturnedAt,
      createdAt: orders.createdAt,
      // What its own lines add up to: a total that is not it was charged at another cart's price.
      lines: sql<number>`(select coalesce(sum(l.line_total_cents), 0)::int from order_lines l where l.order_id = "orders"."id")`,
    })
    .from(orders);
  return rows.map((r) => {
    const released = r.status === "pending" && r.progress === "cancelled";
    const problems: string[] = [];
    if (released && r.stockReturnedAt === null) problems.push("released unpaid; its units were not returned to stock");
    if (Number(r.lines) !== r.total)
      problems.push(`stored at ${formatUsd(r.total)}; its lines add up to ${formatUsd(Number(r.lines))}`);
    return {
      subject: orderRecord(r.id),
      label: `order ${r.reference ?? `#${r.id}`}`,
      expectedCents: released ? 0 : r.total,
      problems,
      since: r.createdAt,
    };
  });
}

/** The order's money in the ledger's words (what moved, never the price). */
async function paymentSentence(db: DbOrTx, orderId: number): Promise<string> {
  const money = await moneyOf(db, orderRecord(orderId));
  return moneySentence(money.lines) || "No payment recorded.";
}

/** What the ledger's reconciler and audit do with an order's rows. */
export const orderLedger: RecordLedger = {
  confirmed: (tx, id, charge) => settlePendingOrder(tx, id, charge, true),
  released: (tx, id, charge) => settlePendingOrder(tx, id, charge, false),
  expected: expectedOrderPayments,
};
