-- The confirmation cap counts per mailbox (issue 28 item 7): `mailbox` is written by enqueueMail
-- (app/mail/mailbox.ts: lower case, no +tag, Gmail without dots). Rows written before have their
-- address in lower case, as the cap compared them until now (they stop counting within 24 hours).
DROP INDEX "outbox_recipient_idx";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "mailbox" text;--> statement-breakpoint
UPDATE "outbox" SET "mailbox" = lower("to");--> statement-breakpoint
CREATE INDEX "outbox_mailbox_idx" ON "outbox" USING btree ("kind","mailbox","created_at");
