import { formHmac, safeEqual } from "~/lib/crypto.server";

/**
 * The address of a payment's receipt page (redirect-after-post, issue 16
 * item 6): `<base>/<payment id>?sig=…`, the id signed with formHmac under the
 * receipt's purpose, so the page answers only the visitor who was sent there;
 * another id with the same signature, or the signature of another kind of
 * receipt, is not found.
 */
export function signedReceiptPath(base: string, purpose: string, paymentId: number): string {
  return `${base}/${paymentId}?${new URLSearchParams({ sig: formHmac(purpose, String(paymentId)) })}`;
}

/** The payment id a receipt URL names, when its signature is ours for this purpose; otherwise null. */
export function verifiedReceiptId(purpose: string, id: string | undefined, sig: string | null): number | null {
  if (!id || !sig) return null;
  if (!/^[1-9]\d{0,9}$/.test(id)) return null;
  return safeEqual(sig, formHmac(purpose, id)) ? Number(id) : null;
}
