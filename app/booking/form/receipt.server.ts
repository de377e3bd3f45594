import { eq } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { serviceRequests } from "@db/schema";
import { cardOfCharge } from "~/payments/ledger.server";
import { formatUsd } from "~/payments/money";
import { signedReceiptPath, verifiedReceiptId } from "~/payments/receipt.server";
import { cardLabel } from "~/payments/words";

/** The booking receipt's address, signed (~/payments/receipt.server.ts). */
const PURPOSE = "service-receipt";
export const SERVICE_RECEIPT_PATH = "/request-service/receipt";

export const serviceReceiptPath = (paymentId: number) => signedReceiptPath(SERVICE_RECEIPT_PATH, PURPOSE, paymentId);
export const verifiedServicePaymentId = (id: string | undefined, sig: string | null) =>
  verifiedReceiptId(PURPOSE, id, sig);

export { visitDay } from "~/booking/visit-day";
import { visitDay } from "~/booking/visit-day";

export type ServiceReceipt = {
  pending: boolean;
  /** The booking's reference (DV-…), null for a booking made before references. */
  reference: string | null;
  amount: string;
  brand: string | null;
  last4: string | null;
  serviceDate: string;
  serviceTime: string;
};

/** "$159.00 charged to Visa ending in 4242 for your service visit on Saturday, November 28, 2026, Morning (8 AM to 11 AM)." */
export function serviceReceiptLine(r: Omit<ServiceReceipt, "pending" | "reference">, verb = "charged"): string {
  return `${r.amount} ${verb} to ${cardLabel(r.brand, r.last4)} for your service visit on ${visitDay(r.serviceDate)}, ${r.serviceTime}.`;
}

export async function findServiceReceipt(db: DbOrTx, paymentId: number): Promise<ServiceReceipt | null> {
  const [row] = await db
    .select({
      paymentStatus: serviceRequests.paymentStatus,
      reference: serviceRequests.reference,
      totalCents: serviceRequests.totalCents,
      serviceDate: serviceRequests.serviceDate,
      serviceTime: serviceRequests.serviceTime,
    })
    .from(serviceRequests)
    .where(eq(serviceRequests.paymentId, paymentId))
    .limit(1);
  if (!row || row.totalCents === null) return null;
  const card = await cardOfCharge(db, paymentId);
  return {
    pending: row.paymentStatus !== "paid",
    reference: row.reference,
    amount: formatUsd(row.totalCents),
    brand: card.brand,
    last4: card.last4,
    serviceDate: row.serviceDate,
    serviceTime: row.serviceTime,
  };
}
