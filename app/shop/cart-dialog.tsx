import { Modal } from "@mantine/core";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { MantineScope } from "~/shell/MantineScope";
import "./cart-dialog.css";
import { CART_INTENT_FIELD, CartIntent } from "./cart-intents";

/**
 * The 'Confirm Deletion' dialog of the cart (SPEC §2 Cart), loaded lazily by
 * routes/my-cart.tsx. Mantine's modal traps focus (Tab and Shift+Tab stay in
 * it) and closes on Escape and on the overlay; the page puts focus back.
 * 'Yes, Delete' posts the same form as the no-JavaScript confirmation step;
 * the dialog closes once the cart has been read again without the item.
 */
export default function CartDialog({
  item,
  onClose,
}: {
  item: { id: string; name: string };
  onClose: (deleted: boolean) => void;
}) {
  const fetcher = useFetcher();
  const sent = useRef(false);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.state !== "idle") sent.current = true;
    else if (sent.current) onClose(true);
  }, [fetcher.state, onClose]);

  return (
    <MantineScope>
      {/* The compound form, for a <div> header: Mantine's <header> would read as a second banner landmark. */}
      <Modal.Root opened onClose={() => !busy && onClose(false)} centered returnFocus={false}>
        <Modal.Overlay />
        <Modal.Content radius="md">
          <Modal.Header component="div">
            <Modal.Title className="cart-dialog-title">Confirm Deletion</Modal.Title>
            <Modal.CloseButton aria-label="Close" />
          </Modal.Header>
          <Modal.Body>
            <p>Are you sure you want to remove {item.name} from your cart?</p>
            <fetcher.Form method="post" action="/my-cart" className="cart-dialog-actions">
              <input type="hidden" name={CART_INTENT_FIELD} value={CartIntent.delete} />
              <input type="hidden" name="cart_id" value={item.id} />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Yes, Delete
              </button>
              <button
                type="button"
                className="btn btn-outline"
                onClick={() => onClose(false)}
                disabled={busy}
                data-autofocus
              >
                Cancel
              </button>
            </fetcher.Form>
          </Modal.Body>
        </Modal.Content>
      </Modal.Root>
    </MantineScope>
  );
}
