CREATE INDEX "carts_created_idx" ON "carts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "service_requests_payment_idx" ON "service_requests" USING btree ("payment_id") WHERE "service_requests"."payment_id" is not null;--> statement-breakpoint
CREATE INDEX "submission_claims_updated_idx" ON "submission_claims" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "payments_idempotency_key_prefix_idx" ON "payments" USING btree ("idempotency_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "outbox_sent_body_idx" ON "outbox" USING btree ("sent_at") WHERE "outbox"."status" = 'sent' and "outbox"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_failed_body_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."status" = 'failed' and "outbox"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "captcha_spent_expires_idx" ON "captcha_spent" USING btree ("expires_at");