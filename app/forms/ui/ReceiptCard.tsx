import type { ReactNode } from "react";

/**
 * The outcome of a paid form on its receipt page (redirect-after-post): the
 * success text and the receipt line, or, when the processor's answer is not
 * known yet, the form's pending notice. Shared by the invoice and the booking.
 */
export function ReceiptCard({
  pending,
  pendingText,
  successText,
  line,
  children,
}: {
  pending: boolean;
  pendingText: string;
  successText: string;
  line: string;
  /** Said under the receipt line on success. */
  children?: ReactNode;
}) {
  return (
    <div className="form-card" id="receipt">
      {pending ? (
        <p role="status" className="form-message form-message--error">
          {pendingText}
        </p>
      ) : (
        <>
          <p role="status" className="form-message form-message--success">
            {successText}
          </p>
          <p className="receipt-line">{line}</p>
          {children}
        </>
      )}
    </div>
  );
}
